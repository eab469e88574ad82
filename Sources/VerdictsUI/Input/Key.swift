/// A key the person pressed, as the state machine sees it.
package enum Key: Sendable, Hashable {
  /// A printable character (including space).
  case char(Character)
  /// Control plus a letter: `ctrl(\"l\")`.
  case ctrl(Character)
  case up, down, left, right
  case pageUp, pageDown, home, end
  case tab, backTab, enter, escape, backspace, delete
  /// A function key, F1–F12.
  case function(Int)

  /// The most bytes a key's spelling takes (`page-down` is 9; a character 16 at most).
  static let longestSpelling = 16

  /// Reads a key as a key file spells it: `r`, `R`, `space`, `tab`, `shift-tab`, `enter`,
  /// `esc`, `up`, `pgdn`, `ctrl-l`, `f1`, `/`; nil for a spelling it does not know.
  ///
  /// A spelling of more than ``longestSpelling`` bytes is none: no key's name is that long, and a
  /// long word was lowercased and counted by characters whole before it was refused.
  public init?(spelling: String) {
    guard spelling.utf8.count <= Self.longestSpelling else { return nil }
    let s = spelling
    let lower = s.lowercased()
    if s.count == 1, let c = s.first, !c.isWhitespace, !(c.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) {
      self = .char(c)
      return
    }
    if lower.hasPrefix("ctrl-") || lower.hasPrefix("c-") || lower.hasPrefix("^") {
      let rest =
        lower.hasPrefix("^") ? String(lower.dropFirst()) : String(lower.split(separator: "-", maxSplits: 1).last ?? "")
      if rest.count == 1, let c = rest.first, c.isASCII, c.isLetter {
        self = .ctrl(c)
        return
      }
      return nil
    }
    if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...12).contains(n) {
      self = .function(n)
      return
    }
    switch lower {
    case "space": self = .char(" ")
    case "tab": self = .tab
    case "shift-tab", "backtab", "btab": self = .backTab
    case "enter", "return", "ret": self = .enter
    case "esc", "escape": self = .escape
    case "backspace", "bs": self = .backspace
    case "delete", "del": self = .delete
    case "up": self = .up
    case "down": self = .down
    case "left": self = .left
    case "right": self = .right
    case "pgup", "pageup", "page-up": self = .pageUp
    case "pgdn", "pgdown", "pagedown", "page-down": self = .pageDown
    case "home": self = .home
    case "end": self = .end
    case "hash": self = .char("#")
    case "equals": self = .char("=")
    default: return nil
    }
  }

  /// How the key is written in help, hints and key files.
  public var spelling: String {
    switch self {
    case .char(" "): return "space"
    case .char("#"): return "hash"
    case .char("="): return "equals"
    case .char(let c): return String(c)
    case .ctrl(let c): return "ctrl-\(c)"
    case .up: return "up"
    case .down: return "down"
    case .left: return "left"
    case .right: return "right"
    case .pageUp: return "pgup"
    case .pageDown: return "pgdn"
    case .home: return "home"
    case .end: return "end"
    case .tab: return "tab"
    case .backTab: return "shift-tab"
    case .enter: return "enter"
    case .escape: return "esc"
    case .backspace: return "backspace"
    case .delete: return "delete"
    case .function(let n): return "f\(n)"
    }
  }
}
