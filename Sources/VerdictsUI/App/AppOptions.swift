import MarfaQueue

/// How the CLI asks for the TUI to run.
public struct AppOptions: Sendable, Hashable {
  /// `--theme NAME|FILE` (above `VERDICTS_THEME` and the config file).
  public var theme: String?
  /// `--ascii`: ASCII borders and glyphs.
  public var ascii: Bool
  /// `--no-color`: the mono theme, attributes only (also `NO_COLOR` in the environment).
  public var noColor: Bool
  /// Start with auto-drain on (holding `updates()`), as `verdicts demo` does.
  public var autoDrain: Bool
  /// `--log FILE`: where actions and errors are logged (never the screen, never the key).
  public var logFile: String?
  /// `--no-mouse`: leave the mouse to the terminal (text selection).
  public var noMouse = false
  /// The key a refused-key stop asks for (the demo's second key); nil: "another key".
  public var keyHint: String?
  /// The pane that has the focus at start (the demo opens on Blocked).
  public var startPane: QueuePane?
  /// A guide's steps, shown one at a time from the start (the demo's first minutes); none: no guide.
  public var guide: [String] = []
  /// Warnings to say on the status line at start (a store whose files others can write),
  /// before any problem of the config files; already made safe for the terminal.
  public var notices: [String] = []
  /// The environment read for `VERDICTS_THEME`, `NO_COLOR` and `XDG_CONFIG_HOME`/`HOME`.
  public var environment: [String: String]

  /// Creates options.
  public init(
    theme: String? = nil, ascii: Bool = false, noColor: Bool = false, autoDrain: Bool = false,
    logFile: String? = nil, environment: [String: String] = [:]
  ) {
    self.theme = theme
    self.ascii = ascii
    self.noColor = noColor
    self.autoDrain = autoDrain
    self.logFile = logFile
    self.environment = environment
  }

  /// Whether colour is off: `--no-color`, or `NO_COLOR` set and not empty.
  public var colorOff: Bool { noColor || !(environment["NO_COLOR"] ?? "").isEmpty }

  /// `$XDG_CONFIG_HOME/verdicts`, else `~/.config/verdicts`.
  public var configDirectory: String? {
    if let x = environment["XDG_CONFIG_HOME"], !x.isEmpty { return x + "/verdicts" }
    if let h = environment["HOME"], !h.isEmpty { return h + "/.config/verdicts" }
    return nil
  }
}
