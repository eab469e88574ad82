import FoundationEssentials
import MarfaWire

/// Which key does what: the defaults of docs/tui.md, remapped by a key file.
///
/// A key file (`$XDG_CONFIG_HOME/verdicts/keys.conf`) holds lines `action = key [key…]`
/// (`# comments`; `action = none` unbinds). A line replaces that action's default keys; a key
/// it takes from another action's defaults is taken away from that action (the user's binding
/// wins) and the conflict is reported, as is a key bound twice in the file (the later line wins).
/// What is reported is what the whole file left: a key bound on several lines is one problem
/// naming the action it ends on, and the actions the file left without a key are named once.
package struct KeyMap: Sendable, Hashable {
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
    .take: [.char("t")], .forget: [.char("f")], .undo: [.char("u")], .drain: [.char("d")], .autoDrain: [.char("a")],
    .useKey: [.char("K")], .filter: [.char("/")], .refused: [.char("!")], .sort: [.char("s")], .pause: [.char("Z")],
    .follow: [.char("F")],
    .tail: [.char("T")],
    .goto: [.char(":")], .jump: [.char("J")], .back: [.backspace], .copyID: [.char("y")], .export: [.char("Y")],
    .history: [.char("H")], .help: [.char("?"), .function(1)], .repaint: [.ctrl("l")], .quit: [.char("q")],
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
    // Every line that bound each key, in order, and the actions whose defaults lost a key.
    var boundOn: [Key: [(Action, Int)]] = [:]
    var tookDefault: [(key: Key, from: Action, to: Action, line: Int)] = []
    var unbound: Set<Action> = []
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
      if bound.isEmpty { unbound.insert(action) }
      for key in bound {
        if let (other, _) = userKeyLine[key], other != action {
          keys[other]?.removeAll { $0 == key }
        }
        userKeyLine[key] = (action, number)
        boundOn[key, default: []].append((action, number))
        for (other, otherKeys) in keys where other != action && otherKeys.contains(key) {
          keys[other]?.removeAll { $0 == key }
          if base.keys[other]?.contains(key) == true, boundOn[key]?.count == 1 {
            tookDefault.append((key, other, action, number))
          }
        }
      }
      keys[action] = bound
    }
    let map = KeyMap(keys: keys)
    // Reported as the whole file left them: the words say what each key does now, and which
    // action was left with none (a key that went back to its own action is no conflict).
    var named: Set<Action> = []
    func noKeyLeft(_ action: Action) -> String {
      guard (map.keys[action] ?? []).isEmpty, !unbound.contains(action) else { return "" }
      named.insert(action)
      return " (\(action.rawValue) has no key left\(action == .quit ? "; ctrl-c still ends the screen" : ""))"
    }
    for took in tookDefault where map.action(for: took.key) != took.from {
      let now = map.action(for: took.key)?.rawValue ?? "nothing"
      problems.append(
        ConfigProblem(
          line: took.line,
          message: "\(took.key.spelling) was \(took.from.rawValue)'s; now \(now)" + noKeyLeft(took.from)))
    }
    for (key, lines) in boundOn where Set(lines.map(\.0)).count > 1 {
      let last = lines[lines.count - 1]
      let before = lines.dropLast().last { $0.0 != last.0 } ?? lines[0]
      problems.append(
        ConfigProblem(
          line: last.1,
          message: lines.count == 2
            ? "\(key.spelling) was bound to \(before.0.rawValue) on line \(before.1); now \(last.0.rawValue)"
              + noKeyLeft(before.0)
            : "\(key.spelling) is bound on \(lines.count) lines (\(lines[0].1) to \(last.1)); the last wins: "
              + "\(key.spelling) is \(last.0.rawValue)"))
    }
    let keyless = Action.allCases.filter {
      (map.keys[$0] ?? []).isEmpty && !(base.keys[$0] ?? []).isEmpty && !unbound.contains($0) && !named.contains($0)
    }
    if !keyless.isEmpty {
      // quit first: the one a person must know is gone (ctrl-c still ends the screen).
      let names = (keyless.filter { $0 == .quit } + keyless.filter { $0 != .quit }).map(\.rawValue)
      let shown =
        names.count > 4
        ? names.prefix(3).joined(separator: ", ") + " and \(names.count - 3) more" : names.joined(separator: ", ")
      let lastLine = (tookDefault.map(\.line) + boundOn.values.flatMap { $0.map(\.1) }).max() ?? 0
      let quitGone = keyless.contains(.quit) ? " (ctrl-c still ends the screen)" : ""
      problems.append(
        ConfigProblem(
          line: lastLine, message: "\(shown) \(keyless.count == 1 ? "has" : "have") no key left" + quitGone))
    }
    problems.sort { $0.line < $1.line }
    return (map, problems)
  }
}
