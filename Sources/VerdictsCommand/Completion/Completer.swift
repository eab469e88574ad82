import MarfaQueue

/// Reads the words typed so far against the command table, as the parser would, and says what
/// the word under the cursor may be (``CompletionRequest``): the shell scripts ask this through
/// `verdicts __complete`, so what they offer is what the parser takes.
struct Completer: Sendable {
  /// The root of the command tree.
  var root: CommandSpec = CommandTable.root
  /// The options every command accepts.
  var globals: [OptionSpec] = CommandTable.globals

  /// What the last of `words` (the words after `verdicts`, the last one the word under the cursor,
  /// maybe empty) stands for.
  func request(for words: [String]) -> CompletionRequest {
    let typed = Array(words.dropLast())
    // The word as the shell will read it: `a\$\(` typed (or put in by an earlier completion) is
    // matched as `a$(`.
    let word = Self.dequoted(words.last ?? "")
    var node = root
    var path: [String] = []
    var positionals = 0
    var given = Set<String>()
    var store: String?
    var endOfOptions = false
    var i = 0
    while i < typed.count {
      let w = typed[i]
      i += 1
      if endOfOptions {
        positionals += 1
        continue
      }
      if w == "--" {
        endOfOptions = true
      } else if w.hasPrefix("--") {
        let (name, inline) = Self.split(w)
        given.insert(name)
        let spec = option(name, at: node)
        var value = inline
        if let spec, spec.value.takesValue, inline == nil {
          // bash hands `--pane=bl` over as `--pane`, `=`, `bl`.
          if i < typed.count, typed[i] == "=" { i += 1 }
          guard i < typed.count else {
            return CompletionRequest(target: valueTarget(spec), word: word, store: store)
          }
          value = typed[i]
          i += 1
        }
        if name == "--store", node.option(name) == nil, let value { store = Self.dequoted(value) }
      } else if w == "=" || w == "-h" || (w.hasPrefix("-") && w.count > 1 && Double(w) == nil) {
        // A stray `=`, or a short option the parser reports; the words after it still count.
        continue
      } else if !node.subcommands.isEmpty && node.positionals.isEmpty {
        guard let sub = node.subcommand(w) else { return CompletionRequest(target: .nothing, word: word) }
        node = sub
        path.append(w)
      } else {
        positionals += 1
      }
    }
    if !endOfOptions, word.hasPrefix("--"), word.contains("=") {
      let (name, value) = Self.split(word)
      guard let spec = option(name, at: node), spec.value.takesValue else {
        return CompletionRequest(target: .nothing, word: word, store: store)
      }
      return CompletionRequest(target: valueTarget(spec), word: value ?? "", prefix: name + "=", store: store)
    }
    let options = CompletionTarget.words(optionNames(at: node, root: path.isEmpty, given: given))
    if !endOfOptions, word.hasPrefix("-") {
      return CompletionRequest(target: options, word: word, store: store)
    }
    if !node.subcommands.isEmpty && node.positionals.isEmpty {
      return CompletionRequest(
        target: .words(node.subcommands.filter { !$0.hidden }.map(\.name)), word: word, store: store)
    }
    let next = positionals < node.positionals.count ? node.positionals[positionals] : node.positionals.last
    guard let spec = next, positionals < node.positionals.count || spec.arity == .many else {
      // Nothing more to give but options: offered on an empty word.
      return CompletionRequest(target: word.isEmpty ? options : .nothing, word: word, store: store)
    }
    return CompletionRequest(target: positionalTarget(spec, of: node), word: word, store: store)
  }

  /// The option `name` as the parser finds it at `node`: the command's own first, then a global one.
  func option(_ name: String, at node: CommandSpec) -> OptionSpec? {
    node.option(name) ?? globals.first { $0.name == name }
  }

  /// The options to offer at `node`: its own, then the global ones, then `--help` (and at the
  /// root `--version`); an option already given is left out unless it repeats.
  func optionNames(at node: CommandSpec, root: Bool, given: Set<String>) -> [String] {
    let own = Set(node.options.map(\.name))
    var names = node.options.filter { $0.repeatable || !given.contains($0.name) }.map(\.name)
    names += globals.filter { !own.contains($0.name) && !given.contains($0.name) }.map(\.name)
    names.append("--help")
    if root && !own.contains("--version") { names.append("--version") }
    return names
  }

  /// What the value of `option` may be.
  func valueTarget(_ option: OptionSpec) -> CompletionTarget {
    if case .choice(let words) = option.value { return .words(words) }
    if option.name == "--from" { return .writeIDs(nil, also: NamedValues.of(option.name)) }
    let parts = option.placeholder.split(separator: "|")
    let named = NamedValues.of(option.name)
    if parts.contains("FILE") || parts.contains("PATH") { return named.isEmpty ? .files : .namesOrFiles(named) }
    return named.isEmpty ? .nothing : .words(named)
  }

  /// What a positional of `node` may be: a closed set's words, a file, or the ids of the writes
  /// the command acts on.
  func positionalTarget(_ positional: PositionalSpec, of node: CommandSpec) -> CompletionTarget {
    if case .choice(let words) = positional.kind { return .words(words) }
    if positional.name == "FILE" || positional.name == "PATH" { return .files }
    guard positional.name == "ID" else { return .nothing }
    switch node.id {
    case .show?: return .writeIDs(nil, also: [])
    case .release?: return .writeIDs(.release, also: [])
    case .withdraw?: return .writeIDs(.withdraw, also: [])
    case .discard?: return .writeIDs(.discard, also: [])
    case .forget?: return .writeIDs(.forget, also: [])
    case .undo?: return .departedIDs
    default: return .nothing
    }
  }

  /// `--name=value` as its name and value; `--name` alone has no value.
  static func split(_ word: String) -> (String, String?) {
    let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    return (String(parts[0]), parts.count > 1 ? String(parts[1]) : nil)
  }

  /// A word as the shell hands it over while it is typed, read as the shell would read it:
  /// backslashes, single quotes, double quotes and `$'…'` taken off (a quote not yet closed runs
  /// to the end). Nothing in it is expanded or run: `$(…)` stays as it is written.
  static func dequoted(_ word: String) -> String {
    enum Quote { case none, single, double, ansi }
    var out = ""
    var quote = Quote.none
    var i = word.startIndex
    func next() -> Character? {
      guard i < word.endIndex else { return nil }
      defer { i = word.index(after: i) }
      return word[i]
    }
    while let c = next() {
      switch quote {
      case .none:
        if c == "\\" {
          if let escaped = next() { out.append(escaped) }
        } else if c == "'" {
          quote = .single
        } else if c == "\"" {
          quote = .double
        } else if c == "$", i < word.endIndex, word[i] == "'" {
          _ = next()
          quote = .ansi
        } else {
          out.append(c)
        }
      case .single:
        if c == "'" { quote = .none } else { out.append(c) }
      case .double:
        if c == "\"" {
          quote = .none
        } else if c == "\\", i < word.endIndex, "$`\"\\".contains(word[i]) {
          out.append(next()!)
        } else {
          out.append(c)
        }
      case .ansi:
        if c == "'" {
          quote = .none
        } else if c == "\\", let escaped = next() {
          let named: [Character: Character] = [
            "n": "\n", "t": "\t", "r": "\r", "e": "\u{1B}", "E": "\u{1B}", "a": "\u{07}", "b": "\u{08}",
            "f": "\u{0C}", "v": "\u{0B}",
          ]
          out.append(named[escaped] ?? escaped)
        } else {
          out.append(c)
        }
      }
    }
    return out
  }
}
