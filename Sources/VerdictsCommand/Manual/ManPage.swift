/// The man page, `docs/verdicts.1` (man(7) macros), made from the command table and
/// ``ManualTable``: `verdicts __man` prints it, and a test keeps the checked-in file equal to it.
enum ManPage {
  /// The command that writes the checked-in page again.
  static let regenerate = "swift build && \"$(swift build --show-bin-path)/verdicts\" __man > docs/verdicts.1"

  /// The commands whose examples the page shows, in order.
  static let examplePaths: [[String]] = [
    [], ["watch"], ["status"], ["queue"], ["show"], ["release"], ["forget"], ["items", "create"], ["completion"],
  ]

  /// The whole page.
  static func render(
    root: CommandSpec = CommandTable.root, globals: [OptionSpec] = CommandTable.globals,
    examples: [[String]: [String]] = HelpExamples.byPath
  ) -> String {
    var out: [String] = [
      ".\\\" The man page of verdicts, made from its command table by `verdicts __man`. Do not edit:",
      ".\\\" change Sources/VerdictsCommand/Parsing (CommandTable, ManualTable) and run",
      ".\\\"   " + regenerate,
      ".TH VERDICTS 1 \"\" \"\(CommandTable.version)\" \"User Commands\"",
      // Left-aligned, no hyphenation: options and ids must stay whole.
      ".ad l",
      ".nh",
      ".SH NAME",
      "verdicts \\- " + Roff.text(root.summary),
      ".SH SYNOPSIS",
      Roff.bold("verdicts") + " [" + Roff.italic("GLOBAL OPTIONS") + "] [" + Roff.italic("COMMAND") + " ["
        + Roff.italic("SUBCOMMAND") + "]] [" + Roff.italic("ARGUMENTS") + "] [" + Roff.italic("OPTIONS") + "] ["
        + Roff.italic("GLOBAL OPTIONS") + "]",
      ".SH DESCRIPTION",
    ]
    out += description.flatMap { [".PP", Roff.text($0)] }
    out.append(".SH COMMANDS")
    for (path, spec) in visibleCommands(root) {
      out += command(path: path, spec: spec)
    }
    out.append(".SH GLOBAL OPTIONS")
    out += [".PP", Roff.text("Accepted before the command and after it. A flag wins over its environment variable.")]
    for option in globals { out += self.option(option) }
    out += [
      ".TP", Roff.bold("\\-h") + ", " + Roff.bold("\\-\\-help"),
      Roff.text("the help of the command reached so far (also `verdicts help COMMAND`)"),
      ".TP", Roff.bold("\\-\\-version"), Roff.text("print the version (and the commit a release build was made from)"),
    ]
    out.append(".SH ENVIRONMENT")
    for entry in ManualTable.environment {
      out += [".TP", Roff.bold(Roff.code(entry.term)), Roff.text(entry.text)]
    }
    out.append(".SH FILES")
    for entry in ManualTable.files {
      out += [".TP", Roff.italic(Roff.code(entry.term)), Roff.text(entry.text)]
    }
    out.append(".SH EXIT STATUS")
    for entry in ManualTable.exitStatus {
      var text = Roff.text(entry.meaning)
      if !entry.errorCodes.isEmpty {
        text +=
          "; " + Roff.text("error codes (`error.code` with --json):") + " "
          + entry.errorCodes.map { Roff.bold(Roff.code($0)) }.joined(separator: ", ")
      }
      out += [".TP", Roff.bold(String(entry.code.rawValue)), text + "."]
    }
    out.append(".SH EXAMPLES")
    for path in examplePaths {
      guard let lines = examples[path], !lines.isEmpty else { continue }
      out += [".PP", ".RS 4", ".nf"] + lines.map(Roff.code) + [".fi", ".RE"]
    }
    out += [
      ".SH SEE ALSO",
      Roff.bold("marfa") + "(1), " + Roff.bold("sqlite3") + "(1), " + Roff.bold("tmux") + "(1)",
      ".PP",
      Roff.text(
        "In the source: docs/cli.md (every command, option, output and exit code), docs/tui.md, docs/keys.md, "
          + "docs/themes.md, docs/rules.md, docs/scripted-instance.md."),
    ]
    return out.joined(separator: "\n") + "\n"
  }

  /// What the page says before the commands, a paragraph each.
  static let description = [
    "verdicts watches a Marfa device's write queue drain, and resolves the writes that cannot go. Writes are "
      + "queued in a SQLite store and drained in order over HTTP to a Marfa instance; every answer is read into one "
      + "verdict: accepted, merged, conflicted, refused, blocked for one of six reasons, or dead.",
    "With no command, verdicts runs the TUI: live panes for the waiting, answered, blocked and dead writes, a "
      + "detail pane, and keys that release, withdraw and discard. It is the writer when the store is free, and "
      + "read-only otherwise, saying why; `verdicts watch` never takes the writer role. `verdicts COMMAND --help` "
      + "prints any command's help, made from the same table as this page.",
    "`--name VALUE` and `--name=VALUE` are the same; `--` ends the options. With --json every command prints one "
      + "JSON value on standard output, and a failure prints `{\"error\":{code,message,server},\"exit\":N}` on "
      + "standard error.",
    "An ID (of show, release, withdraw, discard and forget) is a queue id, not an item id. It may be typed whole, "
      + "as the screen shows it (`…43da8578`, with or without the ellipsis), or as any prefix or suffix of at "
      + "least 6 characters that only one write has; an ambiguous one is refused naming the matches.",
    "`verdicts completion bash|zsh|fish` prints a completion script; it asks verdicts itself for the candidates "
      + "(commands, options, their values, the ids in the store), so it follows the commands as they are.",
  ]

  /// Every command a person may type, depth first, without the root and hidden ones.
  static func visibleCommands(_ root: CommandSpec) -> [(path: [String], spec: CommandSpec)] {
    func walk(_ spec: CommandSpec, _ path: [String]) -> [(path: [String], spec: CommandSpec)] {
      spec.subcommands.filter { !$0.hidden }.flatMap { [(path + [$0.name], $0)] + walk($0, path + [$0.name]) }
    }
    return walk(root, [])
  }

  /// One command's part: heading, synopsis, summary, arguments, options, discussion.
  static func command(path: [String], spec: CommandSpec) -> [String] {
    var out = [".SS \"" + Roff.code((["verdicts"] + path).joined(separator: " ")) + "\""]
    out += [synopsis(path: path, spec: spec), ".br", Roff.text(spec.summary)]
    let subs = spec.subcommands.filter { !$0.hidden }
    if !subs.isEmpty {
      out += [".PP", Roff.text("Commands: ") + subs.map { Roff.bold(Roff.code($0.name)) }.joined(separator: ", ")]
    }
    for positional in spec.positionals {
      out += [".TP", Roff.italic(Roff.code(positional.name)), Roff.text(positional.help) + values(positional.kind)]
    }
    for option in spec.options { out += self.option(option) }
    if let discussion = spec.discussion { out += [".PP"] + self.discussion(discussion) }
    return out
  }

  /// A command's discussion: its lines as prose, the indented ones (commands to type) kept as
  /// they are, a line each.
  static func discussion(_ text: String) -> [String] {
    var out: [String] = []
    var typed = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let indented = line.hasPrefix(" ")
      if indented != typed { out += indented ? [".RS 2", ".nf"] : [".fi", ".RE"] }
      typed = indented
      out.append(indented ? Roff.code(String(line.drop { $0 == " " })) : Roff.text(String(line)))
    }
    if typed { out += [".fi", ".RE"] }
    return out
  }

  /// `.TP` with the option and its value, then what it does and the values it takes.
  static func option(_ option: OptionSpec) -> [String] {
    var tag = Roff.bold(Roff.code(option.name))
    if option.value.takesValue { tag += " " + Roff.italic(Roff.code(option.placeholder)) }
    var text = Roff.text(option.help) + values(option.value)
    let named = NamedValues.of(option.name)
    if !named.isEmpty, option.placeholder.contains("FILE") {
      text += "; built in: " + named.map { Roff.bold(Roff.code($0)) }.joined(separator: ", ") + ", or a file"
    }
    if option.required { text += " (required)" }
    return [".TP", tag, text]
  }

  /// `; one of a, b, c` for a closed set of values, each in bold; nothing for any other value.
  static func values(_ kind: ValueKind) -> String {
    guard case .choice(let words) = kind else { return "" }
    return "; one of " + words.map { Roff.bold(Roff.code($0)) }.joined(separator: ", ")
  }

  /// The command's synopsis, as its help prints it, with commands and options in bold and the
  /// values to give in italic.
  static func synopsis(path: [String], spec: CommandSpec) -> String {
    let name = (["verdicts"] + path).joined(separator: " ")
    let rest = HelpText.synopsis(name: name, spec: spec).dropFirst(name.count).split(separator: " ")
    return ([Roff.bold(Roff.code(name))] + rest.map(synopsisPart)).joined(separator: " ")
  }

  /// One word of a synopsis: `[--id`, `ID]`, `(ID`, `...`, `|`.
  static func synopsisPart(_ word: Substring) -> String {
    var core = word
    var lead = ""
    var trail = ""
    while let first = core.first, first == "[" || first == "(" {
      lead.append(first)
      core.removeFirst()
    }
    while let last = core.last, last == "]" || last == ")" {
      trail = String(last) + trail
      core.removeLast()
    }
    let body: String
    if core.isEmpty || core == "..." || core == "|" {
      body = String(core)
    } else if core.hasPrefix("-") {
      body = Roff.bold(Roff.code(String(core)))
    } else {
      body = Roff.italic(Roff.code(String(core)))
    }
    return lead + body + trail
  }
}
