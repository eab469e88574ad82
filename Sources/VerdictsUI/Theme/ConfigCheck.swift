import MarfaQueue
import MarfaWire

/// Reads the files the TUI reads at start (the config, the keys file, the theme it would use) and
/// lists every problem in them, each with its file and line, as `verdicts config check` prints them.
public enum ConfigCheck {
  /// What was read: the files looked at (those that are there) and every problem found.
  public struct Outcome: Sendable, Hashable {
    /// The files read, in order (the config, keys.conf, a theme file).
    public var files: [String] = []
    /// The theme the TUI would use (a built-in name or a file).
    public var theme = "default"
    /// Every problem, file by file, line by line.
    public var findings: [ConfigFinding] = []
  }

  /// Checks what `options` points the TUI at.
  public static func run(options: AppOptions) -> Outcome {
    var out = Outcome()
    var configTheme: String?
    if let dir = options.configDirectory {
      let config = dir + "/config"
      if let text = read(config, what: "config", into: &out) {
        let read = UIConfig.read(text)
        configTheme = read.config.theme
        out.findings += read.problems.map { ConfigFinding(file: config, line: $0.line, message: $0.message) }
      }
      let keys = dir + "/keys.conf"
      if let text = read(keys, what: "keys file", into: &out) {
        out.findings += KeyMap.read(text).problems.map { ConfigFinding(file: keys, line: $0.line, message: $0.message) }
      }
    }
    if options.colorOff {
      out.theme = "mono"
      return out
    }
    let env = options.environment["VERDICTS_THEME"].flatMap { $0.isEmpty ? nil : $0 }
    let name = options.theme ?? env ?? configTheme ?? "default"
    let source =
      options.theme != nil && options.theme != env
      ? "--theme" : env != nil ? "VERDICTS_THEME" : configTheme != nil ? "config" : "default"
    out.theme = name
    if Theme.builtin(name) != nil { return out }
    var candidates = [name]
    if let dir = options.configDirectory, !name.contains("/") { candidates.append("\(dir)/themes/\(name).theme") }
    for path in candidates {
      let before = out.files.count
      let text = read(path, what: "theme", into: &out)
      guard out.files.count > before || text != nil else { continue }
      if let text {
        out.findings += ThemeReader.read(name: path.lastPathPart.droppingPathExtension, text: text).problems.map {
          ConfigFinding(file: path, line: $0.line, message: $0.message)
        }
      }
      return out
    }
    let names = BuiltinThemes.names.joined(separator: ", ")
    out.findings.append(
      ConfigFinding(
        file: source == "config" ? (options.configDirectory ?? "") + "/config" : source, line: nil,
        message: "no theme '\(name)' (built in: \(names); or a file); the TUI uses default"))
    return out
  }

  /// The file's text, nil when it is not there; a file there that cannot be taken is a finding.
  private static func read(_ path: String, what: String, into out: inout Outcome) -> String? {
    do {
      guard let text = try ConfigFile.optionalText(path, what: what) else { return nil }
      out.files.append(path)
      return text
    } catch let problem as ConfigFile.Problem {
      out.files.append(path)
      out.findings.append(ConfigFinding(file: path, line: nil, message: problem.message))
    } catch {
      out.files.append(path)
      out.findings.append(ConfigFinding(file: path, line: nil, message: "\(error)"))
    }
    return nil
  }
}
