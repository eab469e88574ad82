/// The `--help` text of any command, made from the command table.
enum HelpText {
  /// The help of the command at `path` (empty: the root's).
  static func render(path: [String], root: CommandSpec = CommandTable.root, globals: [OptionSpec] = CommandTable.globals)
    -> String
  {
    var spec = root
    for word in path {
      guard let sub = spec.subcommand(word) else { break }
      spec = sub
    }
    let name = (["verdicts"] + path).joined(separator: " ")
    var out = "\(name) — \(spec.summary)\n\n"
    out += "usage: \(synopsis(name: name, spec: spec))\n"
    let subs = spec.subcommands.filter { !$0.hidden }
    if !subs.isEmpty {
      out += "\ncommands:\n"
      out += rows(subs.map { ($0.name, $0.summary) })
    }
    if !spec.positionals.isEmpty {
      out += "\narguments:\n"
      out += rows(spec.positionals.map { ($0.name, $0.help) })
    }
    if !spec.options.isEmpty {
      out += "\noptions:\n"
      out += rows(spec.options.map { (optionLabel($0), $0.help + ($0.required ? " (required)" : "")) })
    }
    out += "\nglobal options (before or after the command):\n"
    out += rows(
      globals.map { (optionLabel($0), $0.help) } + [
        ("-h, --help", "this help"), ("--version", "print the version" + (spec.option("--version") == nil ? "" : " (before the command)")),
      ])
    if let discussion = spec.discussion { out += "\n\(discussion)\n" }
    if !subs.isEmpty { out += "\nrun '\(name) COMMAND --help' for a command's own help.\n" }
    return out
  }

  /// `verdicts items create --type T --properties JSON [--id ID] ...`
  static func synopsis(name: String, spec: CommandSpec) -> String {
    var parts = [name]
    if !spec.subcommands.isEmpty { parts.append(spec.id == nil ? "COMMAND" : "[COMMAND]") }
    parts += spec.positionals.map(\.synopsis)
    parts += spec.options.map(\.synopsis)
    return parts.joined(separator: " ")
  }

  static func optionLabel(_ option: OptionSpec) -> String {
    option.value.takesValue ? "\(option.name) \(option.placeholder)" : option.name
  }

  /// Two aligned columns, indented.
  static func rows(_ pairs: [(String, String)]) -> String {
    let width = min(28, pairs.map(\.0.count).max() ?? 0)
    return pairs.map { left, right in
      let pad = left.count >= width ? "  " : String(repeating: " ", count: width - left.count + 2)
      return "  \(left)\(pad)\(right)\n"
    }.joined()
  }
}
