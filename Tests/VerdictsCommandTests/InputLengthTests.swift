import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

@testable import VerdictsCommand

/// Sizes bounded on the way in and out: an id, a
/// type, a tag, a namespace, a source or a MIME type past its limit is refused before anything
/// is stored, and a huge id a store holds anyway costs `queue` and `drain` one bounded row.
@Suite(.serialized) struct InputLengthTests {
  /// Every option and positional with a length limit, in a line the parser otherwise takes,
  /// with `value` in its place.
  static func lines(_ value: (Int) -> String) -> [(what: String, limit: Int, line: [String])] {
    var out: [(String, Int, [String])] = []
    for (path, spec) in CommandTable.root.walk() where spec.id != nil {
      let base = BadInputSweepTests.base(path, spec)
      let required = spec.positionals.filter { $0.arity == .required }
      for (i, p) in required.enumerated() {
        guard let limit = p.kind.maxBytes else { continue }
        var line = base
        line[path.count + i] = value(limit)
        out.append(("\(path.joined(separator: " ")) \(p.name)", limit, line))
      }
      for p in spec.positionals where p.arity == .many {
        guard let limit = p.kind.maxBytes else { continue }
        out.append(("\(path.joined(separator: " ")) \(p.name) ...", limit, base + ["abcdef", value(limit)]))
      }
      for o in spec.options {
        guard let limit = o.value.maxBytes else { continue }
        var line = base
        if let at = line.firstIndex(of: o.name) {
          line[at + 1] = value(limit)
        } else {
          line += [o.name, value(limit)]
          if o.name == "--source" && path == ["items", "create"] { line += ["--source-id", "x"] }
          if o.name == "--source-id" { line += ["--source", "x"] }
          if o.name == "--from" { line.append("--plain") }
        }
        out.append(("\(path.joined(separator: " ")) \(o.name)", limit, line))
      }
    }
    return out
  }

  @Test(
    "every id type tag namespace source and mime type past its limit is refused usage naming the limit and nothing is queued"
  ) func everyIdTypeTagNamespaceSourceAndMimeTypePastItsLimitIsRefusedUsageNamingTheLimitAndNothingIsQueued()
    async throws
  {
    let folder = TempFolder()
    for i in 0..<3 {
      let r = await runInProcess(
        ["--json", "items", "create", "--type", "note", "--properties", "{\"n\":\(i)}"], store: folder.store)
      #expect(r.code == 0, "\(r)")
    }
    let queueBefore = await runInProcess(["--json", "queue"], store: folder.store).stdout
    let bytesBefore = folder.storeBytes()
    let over = Self.lines { String(repeating: "x", count: $0 + 1) }
    let names = Set(over.map(\.what))
    for expected in [
      "items create --id", "items create --type", "items create --source", "items create --source-id",
      "items create --tier", "items update ID", "edges create --source", "edges create --target", "edges create --type",
      "tags add TAG", "metadata merge --tag", "extensions write NS", "blobs put --mime", "show ID", "release ID ...",
      "forget ID ...", "watch --from",
    ] {
      #expect(names.contains(expected), "\(expected) has no limit")
    }
    for (what, limit, line) in over {
      for json in [true, false] {
        let r = await runInProcess((json ? ["--json"] : []) + line, store: folder.store)
        #expect(r.code == 2, "\(what): \(r)")
        #expect(r.stdout.isEmpty, "\(what): \(r)")
        if json {
          #expect(r.errorCode == "usage", "\(what): \(r)")
        } else {
          #expect(r.stderr.contains("is \(limit + 1) bytes long; at most \(limit) bytes are taken"), "\(what): \(r)")
          // The value itself is not repeated back.
          #expect(r.stderr.utf8.count < 400, "\(what): \(r.stderr.utf8.count) bytes of error")
        }
      }
    }
    #expect(folder.storeBytes() == bytesBefore, "a refused line changed the store")
    #expect(await runInProcess(["--json", "queue"], store: folder.store).stdout == queueBefore)
    // At the limit, each is taken.
    for (what, _, line) in Self.lines({ String(repeating: "x", count: $0) }) {
      guard case .run = CommandTable.parser.parse(line) else {
        Issue.record("\(what) at its limit was refused: \(line.map { $0.prefix(20) })")
        continue
      }
    }
  }

  @Test func aHundredTwentyThousandCharacterIdIsRefusedWithExitTwoBeforeAStoreIsMade() throws {
    let t = TempFolder()
    let id = String(repeating: "i", count: 120_000)
    let r = try Binary.run(
      ["items", "create", "--type", "note", "--properties", "{}", "--id", id], store: t.store, home: t.path)
    #expect(r.code == 2, "exit \(r.code) \(r.stderr.prefix(300))")
    let said =
      r.stderr
      == "verdicts: items create: --id is 120000 bytes long; at most 256 bytes are taken "
      + "(see 'verdicts items create --help')\n"
    #expect(said, "\(r.stderr.prefix(300))")
    #expect(r.stdout.isEmpty, "\(r.stdout.prefix(300))")
    #expect(!t.exists(t.store), "a store was made for a refused line")
  }

  /// A store of `ordinary` item creates and one whose item id is `hugeId`, queued through the
  /// library (which, like another program, takes any id); the huge one's write id is then made
  /// huge too, with `sqlite3`, when that tool is here.
  func hostileStore(_ t: TempFolder, ordinary: Int, hugeId: String, hugeWriteId: Bool) async throws {
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: t.store), server: nil, create: true)
    for i in 0..<ordinary / 2 {
      _ = try await copy.createItem(type: "note", properties: .object([("n", .int(i))]))
    }
    let huge = try await copy.createItem(type: "note", properties: .object([]), id: hugeId)
    for i in ordinary / 2..<ordinary {
      _ = try await copy.createItem(type: "note", properties: .object([("n", .int(i))]))
    }
    copy.close()
    await waitForWriterRoleReleased(t.store)
    guard hugeWriteId else { return }
    // 200,000 characters made by SQLite itself (an argument that long is past the kernel's limit).
    let run = try ChildProcess.run(
      "/usr/bin/sqlite3",
      [t.store, "UPDATE queue SET id = replace(hex(zeroblob(100000)), '0', 'w') WHERE id = '\(huge.id)'"])
    #expect(run.shellStatus == 0, "\(run.errors)")
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs the sqlite3 tool"))
  func queueOverAStoreHoldingA200000CharacterIdPrintsEveryRowBoundedInWidth() async throws {
    let t = TempFolder()
    let hugeId = String(repeating: "h", count: 200_000)
    try await hostileStore(t, ordinary: 503, hugeId: hugeId, hugeWriteId: true)
    let started = Date()
    let r = try Binary.run(["queue"], store: t.store, home: t.path)
    let seconds = Date().timeIntervalSince(started)
    #expect(r.code == 0, "exit \(r.code) \(r.stderr.prefix(300))")
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 505, "the header and 504 rows")
    let widest = lines.map(\.count).max() ?? 0
    // Seven columns of at most 80 characters and their gaps, and the last failure's 300.
    let bound = 7 * (TextTable.defaultCellLimit + 2) + TextTable.defaultLastCellLimit
    #expect(widest <= bound, "a row \(widest) characters wide")
    #expect(r.stdout.utf8.count < 505 * 700, "\(r.stdout.utf8.count) bytes for 504 rows")
    // The huge row is cut, ending in an ellipsis; the ordinary ones are not padded out to it.
    // (Checked as booleans: a failure must not print the megabytes it found.)
    let hugeRow = try #require(lines.first { $0.hasPrefix("www") }, "no row for the huge write id")
    let idCut = hugeRow.hasPrefix(String(repeating: "w", count: TextTable.defaultCellLimit - 1) + "…  create_item")
    #expect(idCut, "the write id is not cut at \(TextTable.defaultCellLimit) characters")
    let rowsCut = hugeRow.contains(String(repeating: "h", count: TextTable.defaultCellLimit - 1) + "…")
    #expect(rowsCut, "the item id is not cut at \(TextTable.defaultCellLimit) characters")
    #expect(lines[1].count < 200, "an ordinary row is \(lines[1].count) characters wide")
    #expect(seconds < 20, "queue took \(seconds) s")
    print("queue over 504 writes, one of a 200,000-character id: \(r.stdout.utf8.count) bytes in \(seconds) s")
    // `--json` still gives every id whole.
    let json = try Binary.run(["--json", "queue"], store: t.store, home: t.path)
    let ids = json.json?.arrayValue?.compactMap { $0["item_id"]?.stringValue } ?? []
    #expect(ids.contains(hugeId))
  }

  @Test func aDrainOverAWriteWithA120000CharacterIdPrintsABoundedReport() async throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t"))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    let env = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"]
    #expect(await runInProcess(["fill"], store: t.store, environment: env).code == 0)
    try await hostileStore(t, ordinary: 60, hugeId: String(repeating: "d", count: 120_000), hugeWriteId: false)
    let r = try Binary.run(["drain"], store: t.store, home: t.path, environment: env)
    #expect(r.code == 0, "exit \(r.code) \(r.stderr.prefix(300))")
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count >= 62, "\(lines.count) lines")
    let widest = lines.map(\.count).max() ?? 0
    let bound = 6 * (TextTable.defaultCellLimit + 2) + TextTable.defaultLastCellLimit
    #expect(widest <= bound, "a line \(widest) characters wide")
    #expect(r.stdout.utf8.count < 62 * 700, "\(r.stdout.utf8.count) bytes")
    let cut = r.stdout.contains(String(repeating: "d", count: TextTable.defaultCellLimit - 1) + "…")
    #expect(cut, "the item id is not cut at \(TextTable.defaultCellLimit) characters")
  }

  @Test func aCellPastTheLimitIsCutWithAnEllipsisAndNoOtherRowIsPaddedToIt() {
    var table = TextTable(headers: ["A", "B"])
    table.rows = [
      [String(repeating: "x", count: 10_000), "b"], ["short", "b"], [String(repeating: "é", count: 80), "c"],
      ["last", String(repeating: "f", count: 10_000)],
    ]
    let lines = table.render().split(separator: "\n").map(String.init)
    #expect(lines[1] == String(repeating: "x", count: 79) + "…  b")
    #expect(lines[2] == "short" + String(repeating: " ", count: 77) + "b")
    #expect(lines[3] == String(repeating: "é", count: 80) + "  c", "80 characters fit, whatever their bytes")
    // The last column pads nothing: it is cut at 300.
    #expect(lines[4] == "last" + String(repeating: " ", count: 78) + String(repeating: "f", count: 299) + "…")
    table.ascii = true
    #expect(table.render().split(separator: "\n")[1] == String(repeating: "x", count: 79) + "~  b")
  }
}
