import Foundation
import MarfaQueue
import TestSupport
import Testing

@testable import VerdictsCommand

/// The command line a person new to verdicts meets: `help CMD`, an empty pane named, the next step
/// when there is no store.
@Suite struct TriageCLITests {
  @Test(arguments: [["watch"], ["release"], ["items", "create"], []] as [[String]])
  func helpCommandPrintsWhatDashDashHelpPrints(_ path: [String]) throws {
    let folder = TempFolder()
    let viaHelp = try Binary.run(["help"] + path, store: folder.store, home: folder.path)
    let viaFlag = try Binary.run(path + ["--help"], store: folder.store, home: folder.path)
    #expect(viaHelp.code == 0, "\(viaHelp)")
    #expect(viaHelp.stdout == viaFlag.stdout)
    #expect(viaHelp.stdout == HelpText.render(path: path))
  }

  @Test func anEmptyPaneIsNamed() throws {
    let folder = TempFolder()
    _ = try Binary.run(
      ["items", "create", "--type", "t", "--properties", "{}"], store: folder.store, home: folder.path)
    let r = try Binary.run(["queue", "--pane", "blocked"], store: folder.store, home: folder.path)
    #expect(r.code == 0)
    #expect(r.stdout == "no blocked writes\n")
  }

  @Test(arguments: [[], ["status"]] as [[String]])
  func noStoreOffersTheDemoAndAFill(_ line: [String]) throws {
    let folder = TempFolder()
    let r = try Binary.run(line, store: folder.store, home: folder.path)
    #expect(r.code == 2, "\(r)")
    #expect(r.stderr.contains("`verdicts demo`") && r.stderr.contains("`verdicts fill --url URL`"), "\(r)")
    #expect(r.stderr.split(separator: "\n").count == 1)
  }
}

extension TriageCLITests {
  @Test func queueFilterTakesTheTUIsFieldTerms() throws {
    let folder = TempFolder()
    for (id, type) in [("tour-a", "note"), ("tour-b", "task"), ("other", "note")] {
      _ = try Binary.run(
        ["items", "create", "--type", type, "--id", id, "--properties", "{}"], store: folder.store, home: folder.path)
    }
    let r = try Binary.run(
      ["--json", "queue", "--filter", "row:tour-* -row:*-b"], store: folder.store, home: folder.path)
    #expect(r.code == 0, "\(r)")
    #expect(r.json?.arrayValue?.compactMap { $0["item_id"]?.stringValue } == ["tour-a"])
    let none = try Binary.run(
      ["queue", "--pane", "waiting", "--filter", "kind:delete_item"], store: folder.store, home: folder.path)
    // What matched nothing is said, with how many there were.
    #expect(none.stdout == "no waiting write matches kind:delete_item (3 waiting of 3 in the queue)\n")
  }
}

extension TriageCLITests {
  @Test func globalOptionsAreListedOnceUnderHelpOptionsAndEachCommandHasAnExample() throws {
    let folder = TempFolder()
    let options = try Binary.run(["help", "options"], store: folder.store, home: folder.path)
    #expect(options.code == 0)
    for o in CommandTable.globals { #expect(options.stdout.contains(o.name + " "), "\(o.name)") }
    let release = try Binary.run(["release", "--help"], store: folder.store, home: folder.path)
    #expect(!release.stdout.contains(CommandTable.globals[0].help))
    #expect(release.stdout.contains("see 'verdicts help options'"))
    #expect(release.stdout.contains("examples:\n  verdicts release …43da8578\n"))
  }
}

extension TriageCLITests {
  @Test func anUnknownFlagIsMatchedAmongTheCommandsOwnFlags() {
    guard case .failure(let error, _) = CommandTable.parser.parse(["watch", "--quux"]) else {
      Issue.record("--quux was taken")
      return
    }
    #expect(!error.message.contains("did you mean"), "\(error.message)")
    guard case .failure(let near, _) = CommandTable.parser.parse(["watch", "--plian"]) else { return }
    #expect(near.message.hasSuffix("did you mean --plain?"), "\(near.message)")
    guard case .failure(let global, _) = CommandTable.parser.parse(["status", "--jsn"]) else { return }
    #expect(global.message.hasSuffix("did you mean --json?"), "\(global.message)")
  }

  @Test func noMouseReachesTheTUIsOptions() {
    guard case .run(_, let parsed) = CommandTable.parser.parse(["watch", "--no-mouse"]) else {
      Issue.record("--no-mouse was refused")
      return
    }
    let context = CommandContext(
      globals: GlobalOptions(parsed, environment: [:]), environment: [:], output: CapturedOutput(), arguments: parsed)
    #expect(ScreenCommands.options(context, autoDrain: false).noMouse)
  }
}

extension TriageCLITests {
  @Test func badJSONIsRefusedWithItsLineColumnAndACaretAndNothingIsQueued() throws {
    let folder = TempFolder()
    let body = "{\"title\": \"x\",\n \"n\": 1 2}"
    let r = try Binary.run(
      ["items", "create", "--type", "t", "--properties", body], store: folder.store, home: folder.path)
    #expect(r.code == 2, "\(r)")
    let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      lines[0]
        == "verdicts: items create: --properties is not valid JSON at line 2, column 9: expected ',' or '}'"
        + " (see 'verdicts items create --help')", "\(r)")
    #expect(lines[1] == "   \"n\": 1 2}")
    #expect(lines[2] == "          ^")
    #expect(!FileManager.default.fileExists(atPath: folder.store))
  }
}

extension TriageCLITests {
  @Test func queueSortTakesTheTUIsOrdersAndRefusesAnyOther() throws {
    let folder = TempFolder()
    let made: [[String]] = [
      ["items", "create", "--type", "note", "--properties", "{}", "--id", "sort-c"],
      ["tags", "add", "sort-a", "urgent"],
      ["items", "update", "sort-b", "--version", "2", "--properties", "{}"],
    ]
    for args in made {
      let r = try Binary.run(args, store: folder.store, home: folder.path)
      #expect(r.code == 0, "\(r)")
    }
    func order(_ extra: [String]) throws -> [String] {
      let r = try Binary.run(["--json", "queue"] + extra, store: folder.store, home: folder.path)
      #expect(r.code == 0, "\(r)")
      return r.json?.arrayValue?.compactMap { $0["kind"]?.stringValue } ?? []
    }
    #expect(try order([]) == ["create_item", "add_tag", "update_item"])
    #expect(try order(["--sort", "newest"]) == ["update_item", "add_tag", "create_item"])
    #expect(try order(["--sort", "kind"]) == ["add_tag", "create_item", "update_item"])
    #expect(try order(["--sort", "sent"]) == ["create_item", "add_tag", "update_item"])
    let bad = try Binary.run(["queue", "--sort", "oldest"], store: folder.store, home: folder.path)
    #expect(bad.code == 2, "\(bad)")
  }
}
