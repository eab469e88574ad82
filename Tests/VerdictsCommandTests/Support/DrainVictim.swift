import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A store of queued creates and the scripted instance they drain to, for tests that spawn
/// `verdicts drain` and kill or signal it.
final class DrainVictim {
  let instance = ScriptedInstance(scenario: Scenario(name: "victim", types: [ItemType("note")]))
  let folder = TempFolder()
  /// The store's path (in `folder`, unless another was given).
  let store: String
  let url: URL
  /// The writes as queued, in order.
  private(set) var queued: [QueuedWrite] = []

  /// Queues `writes` creates through the library in this process, then closes the store so the
  /// spawned binary is its writer.
  init(writes: Int, store: String? = nil, properties: JSONValue = .object([])) async throws {
    self.store = store ?? folder.store
    url = try instance.start()
    let copy = try await WorkingCopy.open(
      store: URL(fileURLWithPath: self.store), server: Server(url: url.absoluteString, key: "k1"))
    try await copy.fill()
    for i in 0..<writes {
      _ = try await copy.createItem(type: "note", properties: properties.setting("title", .string("write \(i)")))
    }
    queued = try await copy.queue.all()
    copy.close()
  }

  deinit { instance.stop() }

  /// The environment a spawned `verdicts` gets: this store, this instance, key k1.
  var environment: [String: String] {
    Binary.environment(
      store: store, home: folder.path, ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"])
  }

  /// Starts `verdicts --json drain`, with the default action for SIGTERM, SIGHUP and SIGINT.
  func spawnDrain() throws -> Spawned {
    try Spawned(
      ["--json", "drain"], environment: environment,
      defaultSignals: FileManager.default.isExecutableFile(atPath: "/usr/bin/env"))
  }

  /// Write requests the instance has received so far.
  var posts: Int { instance.requests.lazy.filter { $0.method == "POST" }.count }

  /// Waits until the instance has received `count` write requests in all, the process has
  /// ended, or `timeout` seconds have passed.
  func waitForPosts(_ count: Int, while process: Spawned, timeout: Double = 30) {
    waitUntil(within: .seconds(timeout), every: .microseconds(500)) { posts >= count || !process.process.isRunning }
  }

  /// Runs `verdicts drain` to its end until a run exits 0 with nothing left unanswered (at most `runs` runs).
  func drainToCompletion(runs: Int = 5) throws -> [CommandResult] {
    var results: [CommandResult] = []
    for _ in 0..<runs {
      let r = try Binary.run(
        ["--json", "drain"], store: store, home: folder.path, environment: environment, timeout: 300)
      results.append(r)
      if r.code == 0, r.json?["undelivered"] == .number(0), r.json?["held"] == .number(0) { break }
    }
    return results
  }

  /// The queue as the store holds it now, read in this process (a reader: it never writes).
  func queueNow() async throws -> [QueuedWrite] {
    let copy = try await WorkingCopy.openReader(store: URL(fileURLWithPath: store))
    defer { copy.close() }
    return try await copy.queue.all()
  }

  /// Every queued write answered `accepted` under the key it was queued with, none lost, and
  /// the instance applied each exactly once; returns the problems found (empty: none).
  func problems(after queue: [QueuedWrite]) -> [String] {
    var out: [String] = []
    if queue.count != queued.count { out.append("the queue holds \(queue.count) writes, \(queued.count) were queued") }
    let now = Dictionary(uniqueKeysWithValues: queue.map { ($0.id, $0) })
    let applied = instance.appliedWrites
    for w in queued {
      guard let after = now[w.id] else {
        out.append("\(w.id) was lost")
        continue
      }
      if after.verdict != .accepted { out.append("\(w.id) is \(String(describing: after.verdict)), not accepted") }
      if after.idempotencyKey != w.idempotencyKey { out.append("\(w.id) changed its key") }
      let n = applied[w.idempotencyKey] ?? 0
      if n != 1 { out.append("\(w.id) was applied \(n) times") }
      if let item = w.itemId, instance.item(item) == nil { out.append("\(w.id): the instance holds no item \(item)") }
    }
    if applied.count != queued.count {
      out.append("the instance applied \(applied.count) keys for \(queued.count) writes")
    }
    if instance.itemIds.count != queued.count { out.append("the instance holds \(instance.itemIds.count) items") }
    return out
  }

  /// How many answers the instance gave from its records (a write sent again after a kill).
  var replays: Int { instance.idempotencyRecords.values.reduce(0) { $0 + $1.replays } }
}
