import FoundationEssentials
import MarfaWire

/// The TUI's settings file, `$XDG_CONFIG_HOME/verdicts/config`: `name = value` lines.
///
/// `confirm-withdraw = yes|no`, `confirm-discard = yes|no`, `confirm-take = yes|no`, `confirm-bulk = yes|no`, `theme = NAME|FILE`, `ascii = yes|no`.
package struct UIConfig: Sendable, Hashable {
  /// Whether withdraw asks first.
  public var confirmWithdraw = true
  /// Whether discard asks first.
  public var confirmDiscard = true
  /// Whether `t` asks first.
  public var confirmTake = true
  /// Whether a release or forget of more than one marked write asks first.
  public var confirmBulk = true
  /// Whether clicks and the wheel go to the TUI (`mouse = off` leaves them to the terminal).
  public var mouse = true
  /// Whether `y` copies an ID through OSC 52.
  public var clipboard = true
  /// The theme named in the file (below `--theme` and `VERDICTS_THEME`).
  public var theme: String?
  /// Whether to draw ASCII borders and glyphs.
  public var ascii = false

  /// The defaults.
  public init() {}

  /// Reads a config file's text; unknown names and bad values are reported by line.
  public static func read(_ text: String) -> (config: UIConfig, problems: [ConfigProblem]) {
    var config = UIConfig()
    var problems: [ConfigProblem] = []
    for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingSpaces()
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let eq = line.firstIndex(of: "=") else {
        problems.append(ConfigProblem(line: i + 1, message: "expected `name = value`"))
        continue
      }
      let name = line[..<eq].trimmingSpaces()
      let value = line[line.index(after: eq)...].trimmingSpaces()
      func flag() -> Bool? {
        switch value.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default:
          problems.append(
            ConfigProblem(line: i + 1, message: "\(name) takes yes or no, not '\(Sanitizer.clean(value))'"))
          return nil
        }
      }
      switch name {
      case "confirm-withdraw": if let f = flag() { config.confirmWithdraw = f }
      case "confirm-discard": if let f = flag() { config.confirmDiscard = f }
      case "confirm-take": if let f = flag() { config.confirmTake = f }
      case "clipboard": if let f = flag() { config.clipboard = f }
      case "mouse": if let f = flag() { config.mouse = f }
      case "confirm-bulk": if let f = flag() { config.confirmBulk = f }
      case "ascii": if let f = flag() { config.ascii = f }
      case "theme":
        if value.isEmpty {
          problems.append(ConfigProblem(line: i + 1, message: "theme needs a name or a file"))
        } else {
          config.theme = value
        }
      default:
        problems.append(ConfigProblem(line: i + 1, message: "unknown setting '\(Sanitizer.clean(name))'"))
      }
    }
    return (config, problems)
  }
}
