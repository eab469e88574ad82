import Testing

@testable import VerdictsCommand

/// One command line and what the parser should make of it.
struct ParseCase: Sendable, CustomTestStringConvertible {
  enum Expect: Sendable {
    case runs(
      CommandID, values: [String: [String]] = [:], flags: Set<String> = [], globals: [String: String] = [:],
      globalFlags: Set<String> = [])
    case help([String])
    case version
    case fails(String)
  }

  var line: [String]
  var expect: Expect

  init(_ line: [String], _ expect: Expect) {
    self.line = line
    self.expect = expect
  }

  var testDescription: String { "verdicts " + line.joined(separator: " ") }
}

@Suite struct ParserTests {
  static let props = "{\"title\":\"x\"}"

  static let accepted: [ParseCase] = [
    ParseCase([], .runs(.tui)),
    ParseCase(["tui"], .runs(.tui)),
    ParseCase(["queue"], .runs(.queue)),
    ParseCase(["--json", "queue"], .runs(.queue, globalFlags: ["--json"])),
    ParseCase(["queue", "--json"], .runs(.queue, globalFlags: ["--json"])),
    ParseCase(["--json", "--json", "queue"], .runs(.queue, globalFlags: ["--json"])),
    ParseCase(
      ["--store", "/s", "queue", "--url", "http://h", "--key=k"],
      .runs(.queue, globals: ["--store": "/s", "--url": "http://h", "--key": "k"])),
    ParseCase(["--store=/a=b", "status"], .runs(.status, globals: ["--store": "/a=b"])),
    ParseCase(
      ["--no-color", "--ascii", "--theme", "mono", "--log", "/tmp/l", "status"],
      .runs(.status, globals: ["--theme": "mono", "--log": "/tmp/l"], globalFlags: ["--no-color", "--ascii"])),
    ParseCase(
      ["queue", "--kind", "add_tag", "--kind", "create_item", "--pane", "waiting"],
      .runs(.queue, values: ["--kind": ["add_tag", "create_item"], "--pane": ["waiting"]])),
    ParseCase(
      ["items", "create", "--type", "note", "--properties", props],
      .runs(.itemsCreate, values: ["--type": ["note"], "--properties": [props]])),
    ParseCase(
      ["items", "create", "--type=note", "--properties={}", "--version", "3", "--source", "s", "--source-id", "x"],
      .runs(
        .itemsCreate,
        values: [
          "--type": ["note"], "--properties": ["{}"], "--version": ["3"], "--source": ["s"], "--source-id": ["x"],
        ])),
    ParseCase(
      ["items", "update", "i1", "--properties", "{}", "--as-read", "--replace", "--version", "0"],
      .runs(
        .itemsUpdate, values: ["ID": ["i1"], "--properties": ["{}"], "--version": ["0"]],
        flags: ["--as-read", "--replace"])),
    ParseCase(["items", "delete", "i1"], .runs(.itemsDelete, values: ["ID": ["i1"]])),
    ParseCase(["items", "restore", "i1"], .runs(.itemsRestore, values: ["ID": ["i1"]])),
    ParseCase(
      ["items", "transition", "i1", "--state", "archived"],
      .runs(.itemsTransition, values: ["ID": ["i1"], "--state": ["archived"]])),
    ParseCase(
      ["edges", "create", "--source", "a", "--target", "b", "--type", "links"],
      .runs(.edgesCreate, values: ["--source": ["a"], "--target": ["b"], "--type": ["links"]])),
    ParseCase(
      ["edges", "update", "e", "--properties", "{}"],
      .runs(.edgesUpdate, values: ["ID": ["e"], "--properties": ["{}"]])),
    ParseCase(["edges", "delete", "e"], .runs(.edgesDelete, values: ["ID": ["e"]])),
    ParseCase(["tags", "add", "i", "t"], .runs(.tagsAdd, values: ["ID": ["i"], "TAG": ["t"]])),
    ParseCase(["tags", "remove", "i", "t"], .runs(.tagsRemove, values: ["ID": ["i"], "TAG": ["t"]])),
    ParseCase(["metadata", "replace", "i"], .runs(.metadataReplace, values: ["ID": ["i"]])),
    ParseCase(
      ["metadata", "merge", "i", "--tag", "a", "--tag", "b"],
      .runs(.metadataMerge, values: ["ID": ["i"], "--tag": ["a", "b"]])),
    ParseCase(
      ["extensions", "write", "i", "app", "--body", "{}"],
      .runs(.extensionsWrite, values: ["ID": ["i"], "NS": ["app"], "--body": ["{}"]])),
    ParseCase(["extensions", "delete", "i", "app"], .runs(.extensionsDelete, values: ["ID": ["i"], "NS": ["app"]])),
    ParseCase(
      ["blobs", "put", "f.png", "--mime", "image/png"],
      .runs(.blobsPut, values: ["FILE": ["f.png"], "--mime": ["image/png"]])),
    ParseCase(["release", "w1"], .runs(.release, values: ["ID": ["w1"]])),
    ParseCase(["release", "--reason", "key_spent"], .runs(.release, values: ["--reason": ["key_spent"]])),
    ParseCase(["withdraw", "w1"], .runs(.withdraw, values: ["ID": ["w1"]])),
    ParseCase(["discard", "w1"], .runs(.discard, values: ["ID": ["w1"]])),
    ParseCase(["forget"], .runs(.forget)),
    ParseCase(["forget", "a", "b"], .runs(.forget, values: ["ID": ["a", "b"]])),
    ParseCase(["forget", "--", "-odd", "--json"], .runs(.forget, values: ["ID": ["-odd", "--json"]])),
    ParseCase(["take-answered"], .runs(.takeAnswered)),
    ParseCase(["drain"], .runs(.drain)),
    ParseCase(["fill"], .runs(.fill)),
    ParseCase(["catch-up"], .runs(.catchUp)),
    ParseCase(["watch", "--plain"], .runs(.watch, flags: ["--plain"])),
    ParseCase(["demo", "--plain", "--seconds", "5"], .runs(.demo, values: ["--seconds": ["5"]], flags: ["--plain"])),
    ParseCase(
      ["instance", "--port", "8080", "--scenario", "tour"],
      .runs(.instance, values: ["--port": ["8080"], "--scenario": ["tour"]])),
    ParseCase(["hold", "--seconds", "1"], .runs(.hold, values: ["--seconds": ["1"]])),
    // A negative number is a value, not an option.
    ParseCase(
      ["items", "update", "i", "--properties", "{\"n\":-1}"],
      .runs(.itemsUpdate, values: ["ID": ["i"], "--properties": ["{\"n\":-1}"]])),
  ]

  static let helpAndVersion: [ParseCase] = [
    ParseCase(["--help"], .help([])),
    ParseCase(["-h"], .help([])),
    ParseCase(["items", "--help"], .help(["items"])),
    ParseCase(["items", "create", "-h"], .help(["items", "create"])),
    ParseCase(["--json", "release", "--help"], .help(["release"])),
    ParseCase(["items", "create", "--bogus", "--help"], .help(["items", "create"])),
    ParseCase(["withdraw", "--help"], .help(["withdraw"])),
    ParseCase(["--version"], .version),
    ParseCase(["queue", "--version"], .version),
    ParseCase(["--version", "items", "create"], .version),
  ]

  static let refused: [ParseCase] = [
    ParseCase(["bogus"], .fails("unknown command 'bogus'")),
    ParseCase(["qeue"], .fails("did you mean queue?")),
    ParseCase(["bogus", "--help"], .fails("unknown command 'bogus'")),
    ParseCase(["items", "bogus"], .fails("unknown command 'bogus' for verdicts items")),
    ParseCase(
      ["items"],
      .fails("verdicts items needs a subcommand: get, list, create, attach, add, update, delete, restore, transition")),
    ParseCase(["queue", "--bogus"], .fails("unknown option --bogus")),
    ParseCase(["queue", "-x"], .fails("unknown option -x")),
    ParseCase(["queue", "--jsn"], .fails("did you mean --json?")),
    ParseCase(["queue", "--json=yes"], .fails("--json takes no value")),
    ParseCase(["--store"], .fails("--store needs a value (PATH)")),
    ParseCase(["--store", "--json", "queue"], .fails("--store needs a value (PATH)")),
    ParseCase(["--store", "a", "--store", "b", "queue"], .fails("--store was given more than once")),
    ParseCase(
      ["items", "create", "--type", "t", "--properties", "{bad"],
      .fails("--properties is not valid JSON at line 1, column 2: expected a member name\n  {bad\n   ^")),
    ParseCase(["items", "create", "--type", "t", "--properties", "[1]"], .fails("--properties must be a JSON object")),
    ParseCase(["items", "create", "--type", "t", "--properties"], .fails("--properties needs a value (JSON)")),
    ParseCase(["items", "create", "--properties", "{}"], .fails("--type T is required")),
    ParseCase(
      ["items", "create", "--type", " ", "--properties", "{}"], .fails("--type needs a value that is not empty")),
    ParseCase(
      ["items", "create", "--type", "a", "--type", "b", "--properties", "{}"], .fails("--type was given more than once")
    ),
    ParseCase(
      ["items", "create", "--type", "t", "--properties", "{}", "--version", "abc"],
      .fails("--version needs a whole number, not 'abc'")),
    ParseCase(
      ["items", "create", "--type", "t", "--properties", "{}", "--version", "-1"],
      .fails("--version must be between 0 and")),
    ParseCase(
      ["items", "create", "--type", "t", "--properties", "{}", "--source-id", "x"],
      .fails("--source-id needs --source")),
    ParseCase(
      ["items", "transition", "i", "--state", "gone"],
      .fails("--state takes one of active, archived, trashed, not 'gone'")),
    ParseCase(["items", "update", "i", "--properties", "{}", "extra"], .fails("unexpected argument 'extra'")),
    ParseCase(["release"], .fails("give ID or --reason")),
    ParseCase(["release", "a", "--reason", "key_spent"], .fails("give ID or --reason, not both")),
    ParseCase(["release", "--reason", "sleepy"], .fails("--reason takes one of credential_refused")),
    ParseCase(["release", "--reason", "awaiting_dependency"], .fails("not 'awaiting_dependency'")),
    ParseCase(["queue", "--kind", "make_item"], .fails("--kind takes one of create_item")),
    ParseCase(["queue", "--pane", "done"], .fails("--pane takes one of waiting, answered, blocked, dead")),
    ParseCase(["withdraw"], .fails("missing ID")),
    ParseCase(["withdraw", ""], .fails("ID must not be empty")),
    ParseCase(["withdraw", "a", "b"], .fails("unexpected argument 'b'")),
    ParseCase(["tags", "add", "i"], .fails("missing TAG")),
    ParseCase(["metadata", "merge", "i"], .fails("--tag T is required")),
    ParseCase(["extensions", "write", "i", "ns", "--body", "1"], .fails("--body must be a JSON object")),
    ParseCase(["instance", "--port", "70000"], .fails("--port must be between 0 and 65535, not 70000")),
    ParseCase(["demo", "--seconds", "0"], .fails("--seconds must be between 1 and")),
    ParseCase(["watch", "x"], .fails("unexpected argument 'x'")),
    ParseCase(["--version=2"], .fails("--version takes no value")),
    ParseCase(["queue", "--", "x"], .fails("unexpected argument 'x'")),
  ]

  @Test(arguments: accepted + helpAndVersion + refused)
  func parses(_ c: ParseCase) {
    let outcome = CommandTable.parser.parse(c.line)
    switch (c.expect, outcome) {
    case (.runs(let id, let values, let flags, let globals, let globalFlags), .run(let gotId, let parsed)):
      #expect(gotId == id)
      #expect(parsed.values == values)
      #expect(parsed.flags == flags)
      #expect(parsed.globals == globals)
      #expect(parsed.globalFlags == globalFlags)
    case (.help(let path), .help(let gotPath, _)):
      #expect(gotPath == path)
    case (.version, .version):
      break
    case (.fails(let text), .failure(let error, _)):
      #expect(error.message.contains(text), "got: \(error.message)")
    default:
      Issue.record("expected \(c.expect), got \(outcome)")
    }
  }

  @Test func aUsageErrorKeepsTheGlobalsReadSoFar() {
    guard case .failure(let error, let parsed) = CommandTable.parser.parse(["--json", "items", "create", "--bogus"])
    else {
      Issue.record("expected a failure")
      return
    }
    #expect(parsed.globalFlags.contains("--json"))
    #expect(error.path == ["items", "create"])
  }

  @Test func theTableIsWellFormed() {
    let all = CommandTable.root.walk()
    var seen: [CommandID: Int] = [:]
    for (path, spec) in all {
      let name = path.joined(separator: " ")
      #expect(spec.id != nil || !spec.subcommands.isEmpty, "\(name) has neither an action nor subcommands")
      if let id = spec.id { seen[id, default: 0] += 1 }
      #expect(Set(spec.subcommands.map(\.name)).count == spec.subcommands.count, "\(name) repeats a subcommand")
      #expect(Set(spec.options.map(\.name)).count == spec.options.count, "\(name) repeats an option")
      for option in spec.options {
        #expect(option.name.hasPrefix("--"), "\(name) \(option.name)")
        #expect(!option.help.isEmpty, "\(name) \(option.name) has no help")
        #expect(
          option.name == "--version" || !CommandTable.globals.contains { $0.name == option.name },
          "\(name) \(option.name) shadows a global option")
      }
      if let many = spec.positionals.firstIndex(where: { $0.arity == .many }) {
        #expect(many == spec.positionals.count - 1, "\(name): only the last positional may take many")
      }
    }
    for id in CommandID.allCases {
      #expect(seen[id] != nil, "\(id) is in no command")
    }
    #expect(seen[.tui] == 2)  // `verdicts` and `verdicts tui`
  }

  @Test func helpListsEveryOptionAndSubcommand() {
    for (path, spec) in CommandTable.root.walk() {
      let help = HelpText.render(path: path)
      #expect(help.hasPrefix((["verdicts"] + path).joined(separator: " ") + " — "))
      for option in spec.options { #expect(help.contains(option.name), "\(path) help lacks \(option.name)") }
      for positional in spec.positionals { #expect(help.contains(positional.name)) }
      for sub in spec.subcommands where !sub.hidden { #expect(help.contains(sub.name)) }
      for global in CommandTable.globals { #expect(help.contains(global.name)) }
    }
  }

  @Test func synopsesShowAlternativesAndPairs() {
    #expect(HelpText.render(path: ["release"]).contains("usage: verdicts release (ID ... | --reason REASON)\n"))
    #expect(
      HelpText.render(path: ["items", "create"]).contains(
        "usage: verdicts items create --type T --properties JSON [--id ID] [--source S] [--source-id X] [--tier T] [--tag TAG ...] [--version N]\n"
      ))
    #expect(HelpText.render(path: ["forget"]).contains("usage: verdicts forget [ID ...]\n"))
    #expect(HelpText.render(path: ["metadata", "merge"]).contains("usage: verdicts metadata merge ID --tag T ...\n"))
    #expect(HelpText.render(path: ["items"]).contains("usage: verdicts items COMMAND\n"))
    #expect(HelpText.render(path: []).contains("usage: verdicts [COMMAND]\n"))
    // Someone with the package alone is led to the demo first; a command's help is not.
    #expect(HelpText.render(path: []).contains("new here? run 'verdicts demo'"))
    #expect(!HelpText.render(path: ["status"]).contains("new here?"))
  }

  @Test func aUsageFailureNamesTheCommandAndItsHelp() {
    let failure = CommandFailure(usage: UsageError(path: ["items", "create"], message: "--type T is required"))
    #expect(failure.message == "items create: --type T is required (see 'verdicts items create --help')")
    #expect(failure.exit == .usage)
    #expect(CommandFailure(usage: UsageError(path: [], message: "m")).message == "m (see 'verdicts --help')")
  }

  @Test func hiddenCommandsStayOutOfTheRootHelp() {
    #expect(!HelpText.render(path: []).contains("hold"))
  }

  @Test func suggestionsOnlyForNearMisses() {
    #expect(Suggestion.closest(to: "drian", among: ["drain", "fill"]) == "drain")
    #expect(Suggestion.closest(to: "zzzzzz", among: ["drain", "fill"]) == nil)
    // Two letters more or fewer is still a near miss.
    #expect(Suggestion.closest(to: "drainnn", among: ["drain", "fill"]) == "drain")
    #expect(Suggestion.closest(to: "drainnnn", among: ["drain", "fill"]) == nil)
  }

  @Test func aLongPastedWordIsAnsweredAtOnceWithNoSuggestion() throws {
    // Found by fuzzing the argument parser: the distance to every command's and option's name
    // was worked out whole, its length times the name's, so a pasted page took seconds.
    let word = String(repeating: "drain", count: 40_000)
    let started = ContinuousClock.now
    let failure = CommandTable.parser.parse([word])
    #expect(ContinuousClock.now - started < .milliseconds(500), "took \(ContinuousClock.now - started)")
    guard case .failure(let error, _) = failure else {
      Issue.record("a 200,000-letter command was not refused")
      return
    }
    #expect(!error.message.contains("did you mean"))
  }
}
