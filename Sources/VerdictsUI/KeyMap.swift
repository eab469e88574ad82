import FoundationEssentials
import MarfaWire

/// Which key does what: the defaults of DESIGN 6.2, remapped by a key file.
///
/// A key file (`$XDG_CONFIG_HOME/verdicts/keys.conf`) holds lines `action = key [key…]`
/// (`# comments`; `action = none` unbinds). A line replaces that action's default keys; a key
/// it takes from another action's defaults is taken away from that action (the user's binding
/// wins) and the conflict is reported, as is a key bound twice in the file (the later line wins).
public struct KeyMap: Sendable, Hashable {
  /// Keys per action, in the order help shows them.
  public private(set) var keys: [Action: [Key]]
  /// Action per key.
  public private(set) var actions: [Key: Action]

  /// The default bindings.
  public static let defaults = KeyMap(keys: [
    .nextPane: [.tab, .right], .previousPane: [.backTab, .left],
    .paneWaiting: [.char("1")], .paneAnswered: [.char("2")], .paneBlocked: [.char("3")], .paneDead: [.char("4")],
    .down: [.char("j"), .down], .up: [.char("k"), .up], .top: [.char("g"), .home], .bottom: [.char("G"), .end],
    .pageDown: [.pageDown], .pageUp: [.pageUp], .focusDetail: [.enter],
    .mark: [.char(" ")], .markAll: [.char("V")], .clear: [.escape],
    .release: [.char("r")], .releaseReason: [.char("R")], .withdraw: [.char("w")], .discard: [.char("x")],
    .take: [.char("t")], .forget: [.char("f")], .drain: [.char("d")], .autoDrain: [.char("a")],
    .useKey: [.char("K")], .filter: [.char("/")], .sort: [.char("s")], .pause: [.char("Z")], .follow: [.char("F")],
    .tail: [.char("T")],
    .goto: [.char(":")], .jump: [.char("J")], .back: [.backspace], .copyID: [.char("y")], .export: [.char("Y")],
    .help: [.char("?"), .function(1)], .repaint: [.ctrl("l")], .quit: [.char("q")],
  ])

  /// Creates a key map from keys per action.
  public init(keys: [Action: [Key]]) {
    self.keys = keys
    var actions: [Key: Action] = [:]
    for action in Action.allCases { for key in keys[action] ?? [] { actions[key] = action } }
    self.actions = actions
  }

  /// The action bound to a key, if any.
  public func action(for key: Key) -> Action? { actions[key] }

  /// The first key bound to an action, spelled for a hint (nil when unbound).
  public func hint(_ action: Action) -> String? { keys[action]?.first?.spelling }

  /// The defaults with a key file applied, and every problem and conflict found.
  public static func read(_ text: String, base: KeyMap = .defaults) -> (map: KeyMap, problems: [ConfigProblem]) {
    var keys = base.keys
    var problems: [ConfigProblem] = []
    var userKeyLine: [Key: (Action, Int)] = [:]
    for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let number = i + 1
      let line = raw.trimmingSpaces()
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let eq = line.firstIndex(of: "="), eq != line.startIndex else {
        problems.append(ConfigProblem(line: number, message: "expected `action = key [key…]`"))
        continue
      }
      let name = line[..<eq].trimmingSpaces()
      guard let action = Action(rawValue: name) else {
        problems.append(ConfigProblem(line: number, message: "unknown action '\(Sanitizer.clean(name))'"))
        continue
      }
      let spellings = line[line.index(after: eq)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      var bound: [Key] = []
      var bad = false
      for spelling in spellings where spelling.lowercased() != "none" {
        guard let key = Key(spelling: spelling) else {
          problems.append(ConfigProblem(line: number, message: "unknown key '\(Sanitizer.clean(spelling))'"))
          bad = true
          continue
        }
        if action.destructive, case .ctrl = key {
          problems.append(
            ConfigProblem(line: number, message: "\(action.rawValue) may not sit on a control key (\(key.spelling))"))
          bad = true
          continue
        }
        bound.append(key)
      }
      if bad && bound.isEmpty { continue }
      if spellings.isEmpty {
        problems.append(ConfigProblem(line: number, message: "no key for \(action.rawValue) (write `none` to unbind)"))
        continue
      }
      for key in bound {
        if let (other, otherLine) = userKeyLine[key], other != action {
          problems.append(
            ConfigProblem(
              line: number,
              message: "\(key.spelling) was bound to \(other.rawValue) on line \(otherLine); now \(action.rawValue)"))
          keys[other]?.removeAll { $0 == key }
        }
        userKeyLine[key] = (action, number)
        for (other, otherKeys) in keys where other != action && otherKeys.contains(key) {
          keys[other]?.removeAll { $0 == key }
          if userKeyLine[key]?.1 == number, base.keys[other]?.contains(key) == true {
            let left = keys[other]?.isEmpty ?? true
            problems.append(
              ConfigProblem(
                line: number,
                message: "\(key.spelling) was \(other.rawValue)'s; now \(action.rawValue)"
                  + (left ? " (\(other.rawValue) has no key left)" : "")))
          }
        }
      }
      keys[action] = bound
    }
    return (KeyMap(keys: keys), problems)
  }
}
