import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

/// The three seed sentences the queue once parted from, through the built
/// binary as a person runs it: fill, queue, drain, act, read the queue back as JSON.
@Suite(.serialized) struct DependantWriteBinaryTests {
  func env(_ url: URL) -> [String: String] { ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"] }

  /// The queue's row for `id`, as `queue --json` prints it.
  func row(_ id: String, _ t: TempFolder) throws -> JSONValue? {
    let queue = try Binary.run(["queue", "--json"], store: t.store, home: t.path)
    return queue.json?.arrayValue?.first { $0["id"]?.stringValue == id }
  }

  func queued(_ args: [String], _ t: TempFolder) throws -> String {
    let r = try Binary.run(args + ["--json"], store: t.store, home: t.path)
    return try #require(r.json?["id"]?.stringValue, "\(r)")
  }

  @Test func aWriteHeldBehindAnUnansweredOneWhenThePassEndsEarlyIsHeldAndWaiting() throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t", rules: [.once(.write("w-first"), .serverFault)]))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: env(url)).code == 0)
    _ = try queued(["items", "create", "--type", "note", "--id", "w-first", "--properties", "{}"], t)
    let tag = try queued(["tags", "add", "w-first", "t"], t)
    let drain = try Binary.run(["drain", "--json"], store: t.store, home: t.path, environment: env(url))
    #expect(drain.code == 3, "\(drain)")
    #expect(drain.json?["held"] == .number(1))
    #expect(drain.json?["undelivered"] == .number(1))
    let held = try row(tag, t)
    #expect(held?["waiting"] == .bool(true))
    #expect(held?["reason"] == .string("awaiting_dependency"))
  }

  @Test("a refused create whose dependant was refused unsent is discarded and the dependant never released")
  func aRefusedCreateWhoseDependantWasRefusedUnsentIsDiscardedAndTheDependantNeverReleased() throws {
    let instance = ScriptedInstance(
      scenario: Scenario(name: "t", rules: [.once(.write("w-c"), .validation([("title", "is required")]))]))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    _ = try Binary.run(["fill"], store: t.store, home: t.path, environment: env(url))
    let create = try queued(["items", "create", "--type", "note", "--id", "w-c", "--properties", "{}"], t)
    let tag = try queued(["tags", "add", "w-c", "t"], t)
    _ = try Binary.run(["drain"], store: t.store, home: t.path, environment: env(url))
    // The reason names the kind by its wire name.
    #expect(try row(tag, t)?["reason"] == .string("the create_item it waits for was refused"))
    let discard = try Binary.run(["discard", create], store: t.store, home: t.path)
    #expect(discard.code == 0)
    #expect(discard.stdout.contains("discarded"), "\(discard)")
    let release = try Binary.run(["release", tag], store: t.store, home: t.path)
    #expect(release.stdout.contains("nothing released"), "\(release)")
    #expect(release.stdout.contains("it waited for is gone"), "\(release)")
    let again = try Binary.run(["release", tag, "--json"], store: t.store, home: t.path)
    #expect(again.json == .number(0))
  }

  @Test func aWriteThatOnlyFollowsAWithdrawnUpdateIsRefusedNamingTheUpdatesWireName() throws {
    let instance = ScriptedInstance(
      scenario: Scenario(
        name: "t", items: [SeedItem(id: "n1", type: "note")],
        rules: [.once(.route("PATCH", "/items/n1"), .versionConflict)]))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    _ = try Binary.run(["fill"], store: t.store, home: t.path, environment: env(url))
    let first = try queued(["items", "update", "n1", "--properties", #"{"a":1}"#, "--as-read"], t)
    _ = try Binary.run(["drain"], store: t.store, home: t.path, environment: env(url))
    let follower = try queued(["items", "update", "n1", "--properties", #"{"a":2}"#, "--as-read"], t)
    #expect(try row(follower, t)?["follows"] == .string(first))
    let withdraw = try Binary.run(["withdraw", first, "--json"], store: t.store, home: t.path, environment: env(url))
    #expect(withdraw.json == .bool(true), "\(withdraw)")
    let refused = try row(follower, t)
    #expect(refused?["verdict"] == .string("refused"))
    #expect(refused?["reason"] == .string("the update_item it waits for was withdrawn"))
    let patches = instance.requests.filter { $0.method == "PATCH" }.count
    _ = try Binary.run(["drain"], store: t.store, home: t.path, environment: env(url))
    #expect(instance.requests.filter { $0.method == "PATCH" }.count == patches)
  }
}
