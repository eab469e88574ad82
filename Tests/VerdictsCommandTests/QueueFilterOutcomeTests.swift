import Foundation
import MarfaQueue
import TestSupport
import Testing

/// `queue --filter` says what it did. A filter that lets nothing through says
/// so, with how many writes there were (never `the queue is empty` over a full queue); a filter
/// naming a field there is not is refused as a usage error (exit 2) naming the fields there are,
/// on this project's stores and the Marfa core's alike.
@Suite(.serialized) struct QueueFilterOutcomeTests {
  /// A store of 22 writes, one of them dead.
  static func store(_ t: TempFolder) async throws {
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: t.store), server: nil)
    var ids: [String] = []
    for i in 0..<22 { ids.append(try await copy.createItem(type: "note", properties: .object([]), id: "n-\(i)").id) }
    copy.close()
    try SQLiteScript.run(
      "UPDATE queue SET verdict = 'dead', refusals = 5, sent = 1 WHERE id = '\(ids[3])'", on: t.store)
  }

  @Test func aFilterThatMatchesNothingSaysSoWithHowManyWritesThereAre() async throws {
    let t = TempFolder()
    try await Self.store(t)
    let spent = try Binary.run(["queue", "--filter", "reason:key_spent"], store: t.store, home: t.path)
    #expect(spent.code == 0, "\(spent)")
    #expect(spent.stdout == "no write matches reason:key_spent (22 in the queue)\n")
    let dead = try Binary.run(["queue", "--pane", "dead", "--filter", "nothing"], store: t.store, home: t.path)
    #expect(dead.code == 0, "\(dead)")
    #expect(dead.stdout == "no dead write matches nothing (1 dead of 22 in the queue)\n")
    let kind = try Binary.run(["queue", "--kind", "add_tag"], store: t.store, home: t.path)
    #expect(kind.stdout == "no write matches kind:add_tag (22 in the queue)\n")
    // An empty pane with no terms is still named, and the JSON is still the empty list.
    let blocked = try Binary.run(["queue", "--pane", "blocked"], store: t.store, home: t.path)
    #expect(blocked.stdout == "no blocked writes\n")
    let json = try Binary.run(["--json", "queue", "--filter", "reason:key_spent"], store: t.store, home: t.path)
    #expect(json.code == 0 && json.json == .array([]), "\(json)")
  }

  @Test func anUnknownFieldIsRefusedExitTwoNamingTheFieldsThereAre() async throws {
    let t = TempFolder()
    try await Self.store(t)
    let before = t.storeBytes()
    let r = try Binary.run(["queue", "--filter", "reasn:x"], store: t.store, home: t.path)
    #expect(r.code == 2, "\(r)")
    #expect(r.stdout.isEmpty)
    #expect(
      r.stderr.hasPrefix("verdicts: queue: unknown filter field 'reasn' in 'reasn:x' (did you mean reason?)"), "\(r)")
    #expect(r.stderr.contains("the fields are reason, kind, status, verdict, row, streak, body"), "\(r)")
    let json = try Binary.run(["--json", "queue", "--filter", "-reasn:x"], store: t.store, home: t.path)
    #expect(json.code == 2 && json.errorCode == "usage", "\(json)")
    let value = try Binary.run(["queue", "--filter", "status:abc"], store: t.store, home: t.path)
    #expect(value.code == 2 && value.stderr.contains("status takes an HTTP status"), "\(value)")
    #expect(t.storeBytes() == before)
  }

  @Test func aCoreStoreSaysTheSame() throws {
    let t = TempFolder()
    let path = t.file("device.sqlite")
    let fixture = try CoreStoreFixture.everyShape(path: path)
    defer { fixture.close() }
    let none = try Binary.run(["queue", "--filter", "reason:no_such_reason"], store: path, home: t.path)
    #expect(none.code == 0 && none.stdout == "no write matches reason:no_such_reason (13 in the queue)\n", "\(none)")
    let unknown = try Binary.run(["queue", "--filter", "reasn:x"], store: path, home: t.path)
    #expect(unknown.code == 2 && unknown.stderr.contains("the fields are reason"), "\(unknown)")
  }
}
