import FoundationEssentials
import MarfaQueue
import MarfaWire

/// Picks the theme: `--theme` > `VERDICTS_THEME` > the config file > `default`;
/// `NO_COLOR` or `--no-color` → `mono` with no colour at all.
public enum ThemeChoice {
  /// The names of the built-in themes, in the order `--help` lists them.
  public static var builtinNames: [String] { BuiltinThemes.names }

  /// The theme, whether colour is off, and any problems (unknown name, file errors by line).
  package static func choose(
    flag: String?, environment: [String: String], config: String?, noColor: Bool, configDirectory: String? = nil
  ) -> (theme: Theme, colorOff: Bool, problems: [String]) {
    let colorOff = noColor || !(environment["NO_COLOR"] ?? "").isEmpty
    if colorOff { return (Theme.builtin("mono")!, true, []) }
    let env = environment["VERDICTS_THEME"].flatMap { $0.isEmpty ? nil : $0 }
    let name = flag ?? env ?? config ?? "default"
    let (theme, problems) = load(name, configDirectory: configDirectory)
    return (theme, false, problems)
  }

  /// A theme by built-in name, file path, or name in `<config>/themes/NAME.theme`.
  package static func load(_ name: String, configDirectory: String? = nil) -> (Theme, [String]) {
    if let t = Theme.builtin(name) { return (t, []) }
    var candidates = [name]
    if let dir = configDirectory, !name.contains("/") { candidates.append("\(dir)/themes/\(name).theme") }
    for path in candidates {
      let text: String
      do {
        guard let read = try ConfigFile.optionalText(path, what: "theme") else { continue }
        text = read
      } catch {
        return (Theme.builtinDefault, ["\(Sanitizer.clean("\(error)")); using default"])
      }
      let base = path.lastPathPart.droppingPathExtension
      let read = ThemeReader.read(name: base, text: text)
      return (read.theme, read.problems.map { "theme \(Sanitizer.clean(path)) \($0)" })
    }
    let names = BuiltinThemes.names.joined(separator: ", ")
    return (
      Theme.builtinDefault, ["no theme '\(Sanitizer.clean(name))' (built in: \(names); or a file); using default"]
    )
  }
}
