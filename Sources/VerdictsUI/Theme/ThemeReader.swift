import FoundationEssentials
import MarfaWire

/// Reads theme files: `# comments`, then `role = FG BG [bold|dim|underline|reverse]…`.
///
/// A colour is `default`, a name (`red`, `bright-red`, `grey`), `0`–`255` or `#rrggbb`;
/// a comment after a value starts with `# ` (a blank after the `#`).
/// The background may be left out (the terminal's own). Unknown roles and bad values are
/// reported with their line numbers and skipped; roles left out fall back to the default theme.
package enum ThemeReader {
  /// What reading a theme gave: the theme, and the problems found, line by line.
  public struct Result: Sendable {
    /// The theme read.
    public var theme: Theme
    /// Every problem, with its line.
    public var problems: [ConfigProblem]
  }

  /// Reads a theme's text.
  public static func read(name: String, text: String) -> Result {
    var styles: [Role: ThemeStyle] = [:]
    var firstLine: [Role: Int] = [:]
    var problems: [ConfigProblem] = []
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (i, raw) in lines.enumerated() {
      let number = i + 1
      let line = raw.trimmingSpaces()
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let eq = line.firstIndex(of: "=") else {
        problems.append(ConfigProblem(line: number, message: "expected `role = FG BG [attributes]`"))
        continue
      }
      let roleName = line[..<eq].trimmingSpaces()
      guard let role = Role(rawValue: roleName) else {
        problems.append(ConfigProblem(line: number, message: "unknown role '\(Sanitizer.clean(roleName))'"))
        continue
      }
      var tokens: [String] = []
      for t in line[line.index(after: eq)...].split(whereSeparator: { $0 == " " || $0 == "\t" }) {
        let token = String(t)
        if token == "#"
          || (token.hasPrefix("#") && !(token.dropFirst().first?.isLetter ?? false)
            && !(token.dropFirst().first?.isNumber ?? false))
        {
          break  // a trailing comment: `# ...`
        }
        tokens.append(token)
      }
      switch parseStyle(tokens) {
      case .success(let style):
        if let first = firstLine[role] {
          problems.append(
            ConfigProblem(
              line: number, message: "role '\(roleName)' set again (first on line \(first)); this line wins"))
        }
        firstLine[role] = number
        styles[role] = style
      case .failure(let message):
        problems.append(ConfigProblem(line: number, message: message.text))
      }
    }
    return Result(theme: Theme(name: name, styles: styles), problems: problems)
  }

  struct Message: Error { var text: String }

  static func parseStyle(_ tokens: [String]) -> Swift.Result<ThemeStyle, Message> {
    guard let first = tokens.first else { return .failure(Message(text: "a role needs a foreground colour")) }
    guard let fg = ThemeColor(parsing: first) else {
      return .failure(Message(text: "bad colour '\(Sanitizer.clean(first))' (default, a name, 0-255 or #rrggbb)"))
    }
    var style = ThemeStyle(foreground: fg)
    var rest = tokens.dropFirst()
    if let second = rest.first, attribute(second) == nil {
      guard let bg = ThemeColor(parsing: second) else {
        return .failure(Message(text: "bad colour '\(Sanitizer.clean(second))' (default, a name, 0-255 or #rrggbb)"))
      }
      style.background = bg
      rest = rest.dropFirst()
    }
    for token in rest {
      guard let a = attribute(token) else {
        return .failure(Message(text: "bad attribute '\(Sanitizer.clean(token))' (bold, dim, underline, reverse)"))
      }
      style.attributes.insert(a)
    }
    return .success(style)
  }

  static func attribute(_ token: String) -> CellAttributes? {
    CellAttributes.named.first(where: { $0.0 == token.lowercased() })?.1
  }
}
