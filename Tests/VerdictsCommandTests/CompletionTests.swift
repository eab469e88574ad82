import Foundation
import TestSupport
import Testing
import VerdictsUI

@testable import MarfaQueue
@testable import VerdictsCommand

/// `verdicts __complete -- WORD...`, what the completion scripts ask: the candidates for the last
/// word, read from the same command table the parser reads, and the store's ids read only.
@Suite struct CompletionTests {
  /// The candidates `__complete` prints for `words` (the last one under the cursor).
  static func candidates(
    _ words: [String], store: String? = nil, environment: [String: String] = [:]
  ) async -> [String] {
    let r = await runInProcess(["__complete", "--"] + words, store: store, environment: environment)
    #expect(r.code == 0, "\(r)")
    #expect(r.stderr.isEmpty, "\(r)")
    return r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  /// A store holding a write of each state the actions care about; their full ids by name.
  static func store(_ folder: TempFolder) async throws -> [String: String] {
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: folder.store), server: nil)
    defer { copy.close() }
    let verdicts: [(String, Verdict?)] = [
      ("waiting", nil), ("keySpent", .blocked(reason: .keySpent)),
      ("failingAlone", .blocked(reason: .failingAlone)), ("dead", .dead), ("accepted", .accepted),
      ("refused", .refused(Refusal(reason: "validation_error"))),
    ]
    var ids: [String: String] = [:]
    for (name, verdict) in verdicts {
      let w = try await copy.createItem(type: "note", properties: .object([("title", .string(name))]))
      if let verdict {
        try await copy.store.run { db in
          try db.transaction(durable: true) {
            try db.recordVerdict(id: w.id, verdict: verdict, sent: true, answer: nil, now: "2026-12-01T00:00:00.000Z")
          }
        }
      }
      ids[name] = w.id
    }
    return ids
  }

  /// The id as the screen shows it, without the ellipsis.
  static func short(_ id: String) -> String { String(id.suffix(8)) }

  @Test func aCommandIsCompletedFromItsStart() async {
    #expect(await Self.candidates(["rel"]) == ["release"])
    #expect(await Self.candidates(["items", "cr"]) == ["create"])
    #expect(await Self.candidates(["ta"]) == ["take-answered", "tags"])
  }

  @Test func anEmptyWordOffersEveryCommandTheHelpLists() async {
    let visible = CommandTable.root.subcommands.filter { !$0.hidden }.map(\.name)
    #expect(await Self.candidates([""]) == visible)
  }

  @Test func aHiddenCommandIsNeverOffered() async {
    let hidden = CommandTable.root.subcommands.filter(\.hidden).map(\.name)
    #expect(hidden.contains("__complete") && hidden.contains("__man") && hidden.contains("hold"))
    for word in ["", "h", "ho", "_", "__", "__c", "__m"] {
      let offered = await Self.candidates([word])
      for name in hidden { #expect(!offered.contains(name), "\(word.debugDescription) offered \(name)") }
    }
  }

  @Test func thePaneOptionOffersThePanes() async {
    #expect(await Self.candidates(["queue", "--pane", ""]) == ["waiting", "answered", "blocked", "dead"])
    #expect(await Self.candidates(["queue", "--pane", "b"]) == ["blocked"])
    // zsh and fish hand over `--pane=bl` whole; bash as `--pane`, `=`, `bl`.
    #expect(await Self.candidates(["queue", "--pane=bl"]) == ["--pane=blocked"])
    #expect(await Self.candidates(["queue", "--pane", "=", "bl"]) == ["blocked"])
  }

  @Test func theReasonOptionOffersTheBlockedReasons() async {
    #expect(await Self.candidates(["release", "--reason", ""]) == BlockedReason.allCases.map(\.wireName))
    #expect(await Self.candidates(["release", "--reason", "key"]) == ["key_spent"])
  }

  @Test func everyClosedSetOfValuesIsOffered() async {
    #expect(await Self.candidates(["queue", "--kind", ""]) == WriteKind.allCases.map(\.wireName))
    #expect(await Self.candidates(["queue", "--sort", ""]) == PaneOrder.allCases.map(\.title))
    #expect(await Self.candidates(["items", "transition", "x", "--state", ""]) == WorkingCopy.itemStates)
    #expect(await Self.candidates(["completion", ""]) == ["bash", "zsh", "fish"])
    #expect(await Self.candidates(["instance", "--scenario", ""]) == ["empty", "tour", "outage"])
  }

  @Test func theThemeOptionOffersTheBuiltInThemesAndFilesForAPath() async {
    #expect(await Self.candidates(["--theme", ""]) == ThemeChoice.builtinNames)
    #expect(await Self.candidates(["watch", "--theme", "so"]) == ["solarized"])
    #expect(await Self.candidates(["--theme", "./my"]) == [CompletionAnswer.filesLine])
    #expect(await Self.candidates(["--theme", "nosuchname"]) == [CompletionAnswer.filesLine])
  }

  @Test func aPathOrFileValueAsksTheShellForFiles() async {
    for words in [["--store", ""], ["--log", "x"], ["--key-file", ""], ["blobs", "put", ""], ["--store=/tm"]] {
      #expect(await Self.candidates(words) == [CompletionAnswer.filesLine], "\(words)")
    }
  }

  @Test func aDashOffersTheCommandsOwnOptionsThenTheGlobalOnesOnceEach() async {
    let offered = await Self.candidates(["queue", "--pane", "dead", "-"])
    #expect(offered.prefix(3) == ["--kind", "--filter", "--sort"], "\(offered)")
    #expect(!offered.contains("--pane"), "an option given once is not offered again")
    for global in CommandTable.globals { #expect(offered.contains(global.name)) }
    #expect(offered.contains("--help"))
    #expect(await Self.candidates(["queue", "--kind", "add_tag", "--ki"]) == ["--kind"], "--kind repeats")
    #expect(await Self.candidates(["--js"]) == ["--json"])
    #expect(await Self.candidates(["--json", "status", "--js"]) == [])
  }

  @Test func aValueNothingCanListOffersNothing() async {
    #expect(await Self.candidates(["items", "create", "--properties", ""]).isEmpty)
    #expect(await Self.candidates(["--key", ""]).isEmpty)
    #expect(await Self.candidates(["items", "update", ""]).isEmpty, "an item id is not a write id")
    #expect(await Self.candidates(["qeue", ""]).isEmpty, "nothing after an unknown command")
  }

  @Test func theIDsOfTheStoresWritesAreOfferedAsTheScreenShowsThem() async throws {
    let folder = TempFolder()
    let ids = try await Self.store(folder)
    let every = Set(ids.values.map(Self.short))
    #expect(Set(await Self.candidates(["show", ""], store: folder.store)) == every)
    let one = try #require(ids["dead"])
    let part = String(Self.short(one).prefix(5))
    #expect(await Self.candidates(["show", part], store: folder.store).contains(Self.short(one)))
    #expect(await Self.candidates(["show", "…" + part], store: folder.store).contains(Self.short(one)))
    #expect(await Self.candidates(["show", String(one.prefix(30))], store: folder.store) == [one])
    #expect(await Self.candidates(["watch", "--plain", "--from", ""], store: folder.store).first == "now")
  }

  @Test func eachActionIsOfferedOnlyTheWritesItMayTake() async throws {
    let folder = TempFolder()
    let ids = try await Self.store(folder)
    func shorts(_ names: [String]) -> Set<String> { Set(names.compactMap { ids[$0] }.map(Self.short)) }
    #expect(
      Set(await Self.candidates(["release", ""], store: folder.store)) == shorts(["keySpent", "failingAlone", "dead"]))
    #expect(Set(await Self.candidates(["withdraw", ""], store: folder.store)) == shorts(["failingAlone"]))
    #expect(Set(await Self.candidates(["discard", ""], store: folder.store)) == shorts(["refused"]))
    #expect(
      Set(await Self.candidates(["forget", ""], store: folder.store)) == shorts(["accepted"]),
      "a refused create carries content")
  }

  @Test func undoIsOfferedTheDepartedWritesItMayPutBack() async throws {
    let folder = TempFolder()
    let ids = try await Self.store(folder)
    #expect(await Self.candidates(["undo", ""], store: folder.store).isEmpty)
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: folder.store), server: nil)
    #expect(try await copy.queue.discard(ids["refused"]!))
    #expect(try await copy.queue.forgetAnswered(ids: [ids["accepted"]!]) == 1)
    copy.close()
    #expect(
      Set(await Self.candidates(["undo", ""], store: folder.store))
        == Set([ids["refused"]!, ids["accepted"]!].map(Self.short)))
  }

  @Test func theStoreTypedOnTheLineWinsOverMarfaDBAndIsOnlyRead() async throws {
    let folder = TempFolder()
    let ids = try await Self.store(folder)
    let before = folder.storeBytes()
    let elsewhere = TempFolder()
    let env = ["MARFA_DB": elsewhere.store]
    let typed = await Self.candidates(["--store", folder.store, "show", ""], environment: env)
    #expect(Set(typed) == Set(ids.values.map(Self.short)))
    #expect(Set(await Self.candidates(["show", "--store=\(folder.store)", ""], environment: env)).count == ids.count)
    #expect(await Self.candidates(["show", ""], environment: env).isEmpty)
    #expect(!elsewhere.exists(elsewhere.store), "a missing store is never created")
    #expect(folder.storeBytes() == before, "the store's bytes changed")
  }

  @Test func aMarfaCoreStoresIDsAreOfferedToo() async throws {
    let folder = TempFolder()
    let fixture = try CoreStoreFixture.everyShape(path: folder.store)
    defer { fixture.close() }
    let queue = await runInProcess(["--json", "queue"], store: folder.store)
    let ids = try #require(queue.json?.arrayValue?.compactMap { $0["id"]?.stringValue })
    #expect(ids.count > 5, "\(queue)")
    let offered = Set(await Self.candidates(["show", ""], store: folder.store))
    #expect(offered == Set(WriteIDCandidates.fitting(ids, "")))
    #expect(offered.contains("w-held"), "an id of up to 10 characters is offered whole")
  }

  @Test func noStoreOrOneThatCannotBeReadGivesNothingAndNoError() async throws {
    let folder = TempFolder()
    #expect(await Self.candidates(["show", ""], store: folder.store).isEmpty)
    #expect(!folder.exists(folder.store))
    #expect(await Self.candidates(["release", ""]).isEmpty, "the default store under a HOME that is not there")
    try Data("not a store".utf8).write(to: URL(fileURLWithPath: folder.store))
    #expect(await Self.candidates(["show", ""], store: folder.store).isEmpty)
    #expect(await Self.candidates(["--store", folder.path, "show", ""]).isEmpty, "a folder")
  }

  @Test func atMostFiveHundredIDsAreOfferedAndQuickly() async throws {
    let folder = TempFolder()
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: folder.store), server: nil)
    for i in 0..<(WriteIDCandidates.limit + 100) {
      _ = try await copy.createItem(type: "note", properties: .object([("n", .int(i))]))
    }
    copy.close()
    await waitForWriterRoleReleased(folder.store)
    let started = Date()
    let offered = await Self.candidates(["show", ""], store: folder.store)
    #expect(offered.count == WriteIDCandidates.limit)
    #expect(Date().timeIntervalSince(started) < 2, "took \(Date().timeIntervalSince(started)) s")
  }

  @Test func idsTwoWritesShareAreOfferedWhole() {
    let ids = ["0190f1a2-0000-7000-8000-00001111aaaa", "0190f1a2-0000-7000-8000-00002222aaaa"]
    let twins = ["0190f1a2-0000-7000-8000-00001111aaaa", "0190f1a3-0000-7000-8000-00001111aaaa"]
    #expect(WriteIDCandidates.fitting(ids, "") == ["1111aaaa", "2222aaaa"])
    #expect(WriteIDCandidates.fitting(twins, "11") == twins)
    #expect(
      WriteIDCandidates.fitting(["ok-id", "spaced id", "esc\u{1B}id", "nl\nid", "été"], "") == ["ok-id", "spaced id"])
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs the sqlite3 tool"))
  func aPlantedIDIsOfferedAsItIsForTheScriptToQuoteAndOneWithALineBreakNever() async throws {
    let folder = TempFolder()
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: folder.store), server: nil)
    let planted = ["a$(>m1)", "b`>m2`", "c;>m3", "d|>m4", "e&>m5", "f >m6", "g'\"h", "i\n>m8"]
    var sql = ""
    for id in planted {
      let w = try await copy.createItem(type: "note", properties: .object([]))
      let literal =
        "'" + id.replacingOccurrences(of: "'", with: "''").replacingOccurrences(of: "\n", with: "' || char(10) || '")
        + "'"
      sql += "UPDATE queue SET id = \(literal) WHERE id = '\(w.id)';"
    }
    copy.close()
    await waitForWriterRoleReleased(folder.store)
    let run = try ChildProcess.run("/usr/bin/sqlite3", [folder.store, sql])
    #expect(run.shellStatus == 0, "\(run.errors)")
    #expect(Set(await Self.candidates(["show", ""], store: folder.store)) == Set(planted.dropLast()))
    // The word as typed, or as an earlier Tab put it in, quoted: read as the shell reads it.
    for typed in ["a\\$\\(", "'a$(", "\"a\\$(", "$'a$('", "f\\ ", "'f >", "g\\'", "\"g'\\\"h\""] {
      #expect(await Self.candidates(["show", typed], store: folder.store).count == 1, "\(typed)")
    }
    #expect(await Self.candidates(["show", "i"], store: folder.store).isEmpty)
  }

  @Test func aWordIsReadAsTheShellWouldReadItWithoutRunningAnything() {
    #expect(Completer.dequoted(#"a\$\(\>m1\)"#) == "a$(>m1)")
    #expect(Completer.dequoted(#"'a$(>m1)'"#) == "a$(>m1)")
    #expect(Completer.dequoted(#"'g'\''"h"#) == #"g'"h"#)
    #expect(Completer.dequoted(#""b\`>m2\` \x""#) == #"b`>m2` \x"#)
    #expect(Completer.dequoted(#"$'n\nl\''"#) == "n\nl'")
    #expect(Completer.dequoted(#"'open"#) == "open")
    #expect(Completer.dequoted("plain") == "plain")
  }

  @Test func aCandidateHoldingAControlCharacterIsNeverPrinted() {
    let answer = CompletionAnswer(candidates: ["ok", "nl\nx", "esc\u{1B}[2J", "c1\u{9B}x", "del\u{7F}"])
    #expect(answer.text == "ok\n")
  }

  @Test func aWordThatIsNotUTF8FitsNothingAndIsNoError() async {
    let output = CapturedOutput()
    let raw: [[UInt8]] = [Array("__complete".utf8), Array("--".utf8), Array("show".utf8), [0xFF, 0x41]]
    let code = await VerdictsCLI.run(
      rawArguments: raw, environment: ["HOME": "/nonexistent-home-for-tests"], output: output)
    #expect(code == 0)
    #expect(output.stdout.isEmpty && output.stderr.isEmpty, "\(output.stdout) \(output.stderr)")
  }

  @Test func theCompletionCommandPrintsEachShellsScript() async {
    for shell in CommandTable.shells {
      let r = await runInProcess(["completion", shell])
      #expect(r.code == 0, "\(r)")
      #expect(r.stdout == CompletionScript.text(for: shell))
      #expect(r.stdout.contains("__complete --"), "the \(shell) script asks the binary")
    }
    #expect(CompletionScript.zsh.hasPrefix("#compdef verdicts\n"))
    #expect(CompletionScript.bash.contains("complete -F _verdicts verdicts"))
    #expect(CompletionScript.fish.contains("complete -c verdicts -f -a"))
    let bad = await runInProcess(["completion", "tcsh"])
    #expect(bad.code == 2, "\(bad)")
  }
}
