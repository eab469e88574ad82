/// The `--help` text of any command, made from the command table.
enum HelpText {
  /// The help of the command at `path` (empty: the root's).
  static func render(
    path: [String], root: CommandSpec = CommandTable.root, globals: [OptionSpec] = CommandTable.globals
  )
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
    // Someone with the package and nothing else: the first thing to run.
    if path.isEmpty {
      out += "\nnew here? run 'verdicts demo': a scripted instance, a fresh store and the tour, on the screen\n"
    }
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
    // The global options are listed once, under `verdicts help options`.
    let globalNames = globals.map(\.name).joined(separator: " ")
    out += "\nglobal options (before or after the command): \(globalNames) -h --help --version;\n"
    out += "  see 'verdicts help options'\n"
    // The key's safe ways, said on every help page: --key on the command line is seen in ps.
    out += "  the key: use MARFA_API_KEY or --key-file PATH (--key on the command line shows in ps)\n"
    if let examples = HelpExamples.byPath[path], !examples.isEmpty {
      out += "\nexamples:\n" + examples.map { "  \($0)\n" }.joined()
    }
    if let discussion = spec.discussion { out += "\n\(discussion)\n" }
    if !subs.isEmpty { out += "\nrun '\(name) COMMAND --help' for a command's own help.\n" }
    return out
  }

  /// `verdicts help options`: every global option with what it does, then the environment
  /// variables and the exit statuses (``ManualTable``, as the man page lists them).
  static func options(globals: [OptionSpec] = CommandTable.globals) -> String {
    "verdicts — global options, before or after any command\n\n"
      + rows(
        globals.map { (optionLabel($0), $0.help) } + [
          ("-h, --help", "the help of the command reached so far (also 'verdicts help COMMAND')"),
          ("--version", "print the version"),
        ])
      + "\nenvironment:\n" + rows(ManualTable.environment.map { ($0.term, $0.text) })
      + "\nexit status:\n" + rows(ManualTable.exitStatus.map { (String($0.code.rawValue), $0.meaning) })
      + "\nevery command, option, file and exit code: the man page, docs/verdicts.1 (man -l docs/verdicts.1)\n"
  }

  /// `verdicts items create --type T --properties JSON [--id ID] [--source S --source-id X] ...`
  ///
  /// Arguments of one `exactlyOne` rule show as `(ID | --reason REASON)`, those of a `together`
  /// rule as one bracket.
  static func synopsis(name: String, spec: CommandSpec) -> String {
    var parts = [name]
    if !spec.subcommands.isEmpty { parts.append(spec.id == nil ? "COMMAND" : "[COMMAND]") }
    var shown: [String: String] = [:]
    for p in spec.positionals { shown[p.name] = p.synopsis }
    for o in spec.options { shown[o.name] = o.synopsis }
    var grouped: [String: String] = [:]
    var skipped = Set<String>()
    for rule in spec.constraints {
      switch rule {
      case .exactlyOne(let names):
        grouped[names[0]] = "(" + names.map { bare(shown[$0] ?? $0) }.joined(separator: " | ") + ")"
        skipped.formUnion(names.dropFirst())
      case .together(let names):
        grouped[names[0]] = "[" + names.map { bare(shown[$0] ?? $0) }.joined(separator: " ") + "]"
        skipped.formUnion(names.dropFirst())
      case .needs:
        break
      }
    }
    for name in spec.positionals.map(\.name) + spec.options.map(\.name) where !skipped.contains(name) {
      parts.append(grouped[name] ?? shown[name] ?? name)
    }
    return parts.joined(separator: " ")
  }

  /// A synopsis part without its optional brackets: `[--id ID]` → `--id ID`.
  static func bare(_ part: String) -> String {
    part.hasPrefix("[") && part.hasSuffix("]") ? String(part.dropFirst().dropLast()) : part
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
