import FoundationEssentials
import MarfaQueue

/// Reads a command line against a table of commands and the global options.
///
/// Global options are accepted before and after the command's words. After the command,
/// the command's own option wins over a global one of the same name (`items create
/// --version N`); before it, `--version` prints the version. `--` ends the options: what
/// follows is positional. `-h`/`--help` anywhere asks for the help of the command reached.
struct ArgumentParser: Sendable {
  /// The root of the command tree.
  var root: CommandSpec
  /// The options every command accepts (not `--help` or `--version`, which are built in).
  var globals: [OptionSpec]

  /// Reads `arguments` (without the program name).
  func parse(_ arguments: [String]) -> ParseOutcome {
    var state = State(arguments: arguments, root: root, globals: globals)
    state.scan()
    if let error = state.error {
      if state.fatal || !state.helpFollows() { return .failure(error, state.parsed) }
      return .help(state.parsed.path, state.parsed)
    }
    if state.help { return .help(state.parsed.path, state.parsed) }
    if state.version { return .version(state.parsed) }
    return state.finish()
  }

  /// The parser's progress through one command line.
  private struct State {
    let arguments: [String]
    let globals: [OptionSpec]
    var index = 0
    var node: CommandSpec
    var parsed = ParsedArguments()
    var positionals: [String] = []
    var help = false
    var version = false
    var endOfOptions = false
    var error: UsageError?
    /// An error that `--help` does not excuse (an unknown command).
    var fatal = false

    init(arguments: [String], root: CommandSpec, globals: [OptionSpec]) {
      self.arguments = arguments
      self.node = root
      self.globals = globals
    }

    mutating func fail(_ message: String, fatal: Bool = false) {
      guard error == nil else { return }
      error = UsageError(path: parsed.path, message: message)
      self.fatal = fatal
    }

    /// Whether `-h`/`--help` comes later on the line (before any `--`).
    func helpFollows() -> Bool {
      if help { return true }
      for word in arguments[index...] {
        if word == "--" { return false }
        if word == "-h" || word == "--help" { return true }
      }
      return false
    }

    func isOptionWord(_ word: String) -> Bool {
      if word == "-h" || word == "--help" || word == "--version" || word == "--" { return true }
      let name = String(word.split(separator: "=", maxSplits: 1).first ?? "")
      return node.option(name) != nil || globals.contains { $0.name == name }
    }

    mutating func scan() {
      while index < arguments.count, error == nil {
        let word = arguments[index]
        index += 1
        if endOfOptions {
          positionals.append(word)
        } else if word == "--" {
          endOfOptions = true
        } else if word == "-h" || word == "--help" {
          help = true
        } else if word.hasPrefix("--") {
          option(word)
        } else if word.hasPrefix("-") && word.count > 1 && Double(word) == nil {
          fail("unknown option \(word)")
        } else if !node.subcommands.isEmpty && node.positionals.isEmpty {
          guard let sub = node.subcommand(word) else {
            let names = node.subcommands.filter { !$0.hidden }.map(\.name)
            let within = parsed.path.isEmpty ? "" : " " + parsed.path.joined(separator: " ")
            fail(
              "unknown command '\(word)' for verdicts\(within)\(Suggestion.hint(for: word, among: names))",
              fatal: true)
            return
          }
          node = sub
          parsed.path.append(word)
        } else {
          positionals.append(word)
        }
      }
    }

    mutating func option(_ word: String) {
      let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = String(parts[0])
      let inline = parts.count > 1 ? String(parts[1]) : nil
      if let spec = node.option(name) {
        guard let value = take(spec, inline: inline) else { return }
        if spec.value == .flag {
          parsed.flags.insert(name)
        } else {
          if parsed.values[name] != nil && !spec.repeatable { return fail("\(name) was given more than once") }
          parsed.values[name, default: []].append(value)
        }
      } else if name == "--version" {
        if inline != nil { return fail("--version takes no value") }
        version = true
      } else if let spec = globals.first(where: { $0.name == name }) {
        guard let value = take(spec, inline: inline) else { return }
        if spec.value == .flag {
          parsed.globalFlags.insert(name)
        } else {
          if parsed.globals[name] != nil { return fail("\(name) was given more than once") }
          parsed.globals[name] = value
        }
      } else {
        // The command's own options first; a global one only when a single letter is off.
        var hint = Suggestion.hint(for: name, among: node.options.map(\.name))
        if hint.isEmpty {
          hint = Suggestion.hint(for: name, among: globals.map(\.name) + ["--help", "--version"], limit: 1)
        }
        fail("unknown option \(name)\(hint)")
      }
    }

    /// The option's value (checked against its kind), "" for a flag, or nil after failing.
    mutating func take(_ spec: OptionSpec, inline: String?) -> String? {
      guard spec.value.takesValue else {
        if inline != nil {
          fail("\(spec.name) takes no value")
          return nil
        }
        return ""
      }
      let value: String
      if let inline {
        value = inline
      } else {
        guard index < arguments.count, !isOptionWord(arguments[index]) else {
          fail("\(spec.name) needs a value (\(spec.placeholder))")
          return nil
        }
        value = arguments[index]
        index += 1
      }
      if let problem = Self.check(value, spec.value, name: spec.name) {
        fail(problem)
        return nil
      }
      return value
    }

    /// Why `value` is not acceptable as a `kind` for the option or argument `name`, or nil.
    static func check(_ value: String, _ kind: ValueKind, name: String) -> String? {
      // Said without the value itself, which may be megabytes.
      if let limit = kind.maxBytes, value.utf8.count > limit {
        return "\(name) is \(value.utf8.count) bytes long; at most \(limit) bytes are taken"
      }
      switch kind {
      case .flag:
        return nil
      case .text, .name:
        return value.trimmingSpaces().isEmpty ? "\(name) needs a value that is not empty" : nil
      case .segment:
        if value.trimmingSpaces().isEmpty { return "\(name) needs a value that is not empty" }
        if value == "." || value == ".." {
          return "\(name) cannot be '\(value)': it would name another place in the instance's paths"
        }
        return nil
      case .integer(let range):
        guard let n = Int(value) else { return "\(name) needs a whole number, not '\(value)'" }
        return range.contains(n)
          ? nil : "\(name) must be between \(range.lowerBound) and \(range.upperBound), not \(n)"
      case .jsonObject:
        let json: JSONValue
        do {
          json = try JSONValue(parsing: value)
        } catch {
          let (line, column) = error.location(in: value)
          return
            (["\(name) is not valid JSON at line \(line), column \(column): \(error.reason)"]
            + error.pointer(in: value)).joined(separator: "\n")
        }
        guard case .object = json else {
          return "\(name) must be a JSON object such as {\"title\":\"x\"}, not \(Self.excerpt(value))"
        }
        return nil
      case .choice(let words):
        guard words.contains(value) else {
          return "\(name) takes one of \(words.joined(separator: ", ")), not '\(value)'"
            + Suggestion.hint(for: value, among: words)
        }
        return nil
      }
    }

    static func excerpt(_ text: String) -> String {
      let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
      return "'\(cut)'"
    }

    /// Assigns the positionals and checks the command's rules.
    mutating func finish() -> ParseOutcome {
      guard let id = node.id else {
        let names = node.subcommands.filter { !$0.hidden }.map(\.name).joined(separator: ", ")
        let name = (["verdicts"] + parsed.path).joined(separator: " ")
        return failure("\(name) needs a subcommand: \(names)")
      }
      var rest = positionals[...]
      for spec in node.positionals {
        switch spec.arity {
        case .required:
          guard let first = rest.popFirst() else { return failure("missing \(spec.name)") }
          parsed.values[spec.name] = [first]
        case .optional:
          if let first = rest.popFirst() { parsed.values[spec.name] = [first] }
        case .many:
          if !rest.isEmpty { parsed.values[spec.name] = Array(rest) }
          rest = []
        }
      }
      if let extra = rest.first { return failure("unexpected argument '\(extra)'") }
      for spec in node.positionals {
        for value in parsed.strings(spec.name) {
          if value.trimmingSpaces().isEmpty { return failure("\(spec.name) must not be empty") }
          if let problem = Self.check(value, spec.kind, name: spec.name) { return failure(problem) }
        }
      }
      for spec in node.options where spec.required && !parsed.has(spec.name) {
        return failure("\(spec.name) \(spec.placeholder) is required")
      }
      for rule in node.constraints {
        if let problem = Self.violation(of: rule, in: parsed) { return failure(problem) }
      }
      return .run(id, parsed)
    }

    mutating func failure(_ message: String) -> ParseOutcome {
      fail(message)
      return .failure(error!, parsed)
    }

    static func violation(of rule: Constraint, in parsed: ParsedArguments) -> String? {
      switch rule {
      case .exactlyOne(let names):
        let given = names.filter(parsed.has)
        if given.isEmpty { return "give \(names.joined(separator: " or "))" }
        if given.count > 1 { return "give \(given.joined(separator: " or ")), not both" }
        return nil
      case .together(let names):
        let given = names.filter(parsed.has)
        guard !given.isEmpty, given.count < names.count else { return nil }
        let missing = names.filter { !parsed.has($0) }
        return "\(given.joined(separator: " and ")) needs \(missing.joined(separator: " and ")) too"
      case .needs(let first, let second):
        return parsed.has(first) && !parsed.has(second) ? "\(first) needs \(second)" : nil
      }
    }
  }
}
