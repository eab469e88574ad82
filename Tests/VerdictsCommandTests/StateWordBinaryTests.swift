import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every view names a write's state with the same one word (`queued`, `sent`,
/// `undelivered`, `waiting`, or the verdict), asked of the same store through the built binary:
/// `queue`, `queue --json` (`state`), `show`, `show --json`, `watch --plain` and its `--json`.
/// (The screen's panes and detail: `StateWordScreenTests` in VerdictsUITests.)
@Suite(.serialized) struct StateWordBinaryTests {
  /// A store with one write in each state of ``EveryState``; the ids by role.
  static func everyStateStore(_ t: TempFolder) throws -> [String: String] {
    var ids: [String: String] = [:]
    for role in EveryState.roles {
      let r = try Binary.run(
        ["--json", "items", "create", "--type", "note", "--id", "item-\(role)", "--properties", "{}"],
        store: t.store, home: t.path)
      guard r.code == 0, let id = r.json?["id"]?.stringValue else { throw FixtureError("\(role): \(r)") }
      ids[role] = id
    }
    try SQLiteScript.run(EveryState.sql(ids), on: t.store)
    return ids
  }

  /// The cells of `column` in an aligned table, by the row's first cell (the id).
  static func column(_ name: String, of table: String) -> [String: String] {
    let lines = table.split(separator: "\n").map(String.init)
    guard let header = lines.first, let start = header.range(of: name)?.lowerBound else { return [:] }
    let from = header.distance(from: header.startIndex, to: start)
    let next = header[start...].dropFirst(name.count).firstIndex { $0 != " " }
    let to = next.map { header.distance(from: header.startIndex, to: $0) }
    var out: [String: String] = [:]
    for line in lines.dropFirst() {
      let chars = Array(line)
      guard chars.count > from, let id = line.split(separator: " ").first else { continue }
      let cell = String(chars[from..<min(to ?? chars.count, chars.count)])
      out[String(id)] = cell.trimmingCharacters(in: .whitespaces)
    }
    return out
  }

  /// The words of a line, split at spaces and the separators the views use.
  static func words(_ line: String) -> [String] {
    line.split { " ·:,()".contains($0) }.map(String.init)
  }

  @Test func queueShowAndWatchPlainGiveEachStateTheSameWord() throws {
    let t = TempFolder()
    let ids = try Self.everyStateStore(t)

    let queue = try Binary.run(["queue"], store: t.store, home: t.path)
    #expect(queue.code == 0, "\(queue)")
    let verdicts = Self.column("VERDICT", of: queue.stdout)
    let json = try Binary.run(["--json", "queue"], store: t.store, home: t.path)
    let rows = try #require(json.json?.arrayValue)
    let watch = try Spawned(["watch", "--plain"], environment: Binary.environment(store: t.store, home: t.path, [:]))
    defer { watch.kill() }
    let watchJSON = try Spawned(
      ["--json", "watch", "--plain"], environment: Binary.environment(store: t.store, home: t.path, [:]))
    defer { watchJSON.kill() }
    // Every write on a whole line (output read as it comes may end mid-line).
    func listed(_ s: Spawned) -> Bool {
      let whole = s.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      return ids.values.allSatisfy { id in whole.contains { $0.contains(id) } }
    }
    waitUntil(within: .seconds(30)) { listed(watch) && listed(watchJSON) }

    for role in EveryState.roles {
      let id = ids[role]!
      let word = role
      #expect(Self.words(verdicts[id] ?? "").first == word, "queue: \(role): \(queue.stdout)")
      #expect(rows.first { $0["id"] == .string(id) }?["state"] == .string(word), "queue --json: \(role)")

      let show = try Binary.run(["show", id], store: t.store, home: t.path)
      let line = show.stdout.split(separator: "\n").first { $0.hasPrefix("verdict") }.map(String.init) ?? ""
      #expect(Self.words(line).contains(word), "show: \(role): \(line)")
      let shown = try Binary.run(["--json", "show", id], store: t.store, home: t.path)
      #expect(shown.json?["state"] == .string(word), "show --json: \(role)")

      // `time id kind rows verdict reason streak status text`
      let plain = watch.stdout.split(separator: "\n").first {
        $0.split(separator: " ").dropFirst().first == Substring(id)
      }
      #expect(
        plain?.split(separator: " ").dropFirst(4).first == Substring(word), "watch --plain: \(role): \(plain ?? "")")
      let plainJSON = watchJSON.stdout.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
        .first { $0["id"] == .string(id) }
      #expect(plainJSON?["state"] == .string(word), "watch --plain --json: \(role)")
    }
  }

  /// The issue's case: the writer killed while a write's request is out. `watch --plain` printed
  /// a line when it was sent, and every view then says `sent`: not `queued`, not an answer.
  @Test func aWriteInFlightWhenItsWriterIsKilledIsSentInEveryViewAndWatchPlainSaidSo() async throws {
    let victim = try await DrainVictim(writes: 1)
    victim.instance.addRule(.always(.route("POST", "/items"), .stall))
    let id = victim.queued[0].id
    let watch = try Spawned(["watch", "--plain"], environment: victim.environment)
    defer { watch.kill() }
    waitUntil(within: .seconds(30)) { watch.stdout.contains(" queued ") }
    let drain = try victim.spawnDrain()
    defer { drain.kill() }
    victim.waitForPosts(1, while: drain)
    #expect(victim.posts == 1)
    func sentLine() -> String? {
      watch.stdout.split(separator: "\n").map(String.init).first {
        $0.contains(" \(id) ") && $0.split(separator: " ").dropFirst(4).first == "sent"
      }
    }
    waitUntil(within: .seconds(30)) { sentLine() != nil }
    #expect(sentLine() != nil, "watch --plain printed no line when the write was sent: \(watch.stdout)")
    drain.kill()
    #expect(drain.wait(timeout: 10))

    let queue = try Binary.run(["queue"], store: victim.store, home: victim.folder.path)
    #expect(Self.column("VERDICT", of: queue.stdout)[id] == "sent", "\(queue.stdout)")
    let json = try Binary.run(["--json", "queue"], store: victim.store, home: victim.folder.path)
    #expect(json.json?.arrayValue?.first?["state"] == .string("sent"), "\(json)")
    let show = try Binary.run(["show", id], store: victim.store, home: victim.folder.path)
    #expect(show.stdout.contains("no verdict yet · sent"), "\(show.stdout)")
    // A watcher started now lists it as sent too.
    let later = try Spawned(["watch", "--plain"], environment: victim.environment)
    defer { later.kill() }
    waitUntil(within: .seconds(30)) { later.stdout.contains(" \(id) ") }
    let line = later.stdout.split(separator: "\n").first { $0.contains(" \(id) ") }
    #expect(line?.split(separator: " ").dropFirst(4).first == "sent", "\(later.stdout)")
  }
}
