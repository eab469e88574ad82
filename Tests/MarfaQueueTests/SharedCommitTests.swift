import Dispatch
import Foundation
import TestSupport
import Testing

@testable import MarfaQueue

#if canImport(Glibc)
  import Glibc
#endif

/// Durable queue calls made at once share one commit (group commit), each in a savepoint of its
/// own: every call that returned is in the store, in each caller's order; a call that throws
/// fails alone; a commit that fails keeps none of its calls.
@Suite struct SharedCommitTests {
  @Test("eight callers queueing at once find every write they were given in the store, each in its caller's order")
  func eightCallersQueueingAtOnceFindEveryWriteInTheStoreInTheirOrder() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let perCaller = 40
    let ids = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
      for caller in 0..<8 {
        group.addTask {
          var mine: [String] = []
          for i in 0..<perCaller {
            let w = try await copy.createItem(
              type: "note", properties: .object([("caller", .int(caller)), ("n", .int(i))]))
            mine.append(w.id)
          }
          return (caller, mine)
        }
      }
      var all: [Int: [String]] = [:]
      for try await (caller, mine) in group { all[caller] = mine }
      return all
    }
    let queued = try await copy.queue.all()
    #expect(queued.count == 8 * perCaller)
    let position = Dictionary(uniqueKeysWithValues: queued.enumerated().map { ($1.id, $0) })
    for (caller, mine) in ids {
      let places = mine.compactMap { position[$0] }
      #expect(places.count == perCaller, "caller \(caller): \(perCaller - places.count) returned writes are missing")
      #expect(places == places.sorted(), "caller \(caller)'s writes are out of its order")
    }
  }

  @Test("calls that come while the store is busy are made durable by one commit")
  func callsThatComeWhileTheStoreIsBusyShareOneCommit() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let before = try await copy.store.run { $0.commits }
    let held = holdStore(copy.store)
    let writes = Task {
      try await withThrowingTaskGroup(of: QueuedWrite.self) { group in
        for i in 0..<8 {
          group.addTask { try await copy.createItem(type: "note", properties: .object([("n", .int(i))])) }
        }
        var made: [QueuedWrite] = []
        for try await w in group { made.append(w) }
        return made
      }
    }
    #expect(await eventually { copy.store.sharedCommit.withLock { $0.calls.count } == 8 })
    held.signal()
    let made = try await writes.value
    #expect(made.count == 8)
    #expect(try await copy.store.run { $0.commits } == before + 1)
    #expect(Set(try await copy.queue.all().map(\.id)) == Set(made.map(\.id)))
  }

  @Test("a call that throws inside a shared commit fails alone: its statements are undone, the others kept")
  func aCallThatThrowsInsideASharedCommitFailsAlone() async throws {
    try await Self.withScratchStore { copy in
      let calls = await Self.gathered(
        copy.store,
        [
          { db in try db.execute("INSERT INTO scratch VALUES ('first')") },
          { db in
            try db.execute("INSERT INTO scratch VALUES ('failing')")
            throw QueueError.invalid(message: "this call fails after a statement")
          },
          { db in try db.execute("INSERT INTO scratch VALUES ('last')") },
        ])
      try await calls[0].value
      try await calls[2].value
      await #expect(throws: QueueError.invalid(message: "this call fails after a statement")) {
        try await calls[1].value
      }
      #expect(try await Self.scratchNames(copy.store) == ["first", "last"])
    }
  }

  @Test("a shared commit that fails fails every call in it, and keeps none of them")
  func aSharedCommitThatFailsFailsEveryCallAndKeepsNone() async throws {
    try await Self.withScratchStore { copy in
      let calls = await Self.gathered(
        copy.store,
        [
          { db in try db.execute("INSERT INTO scratch VALUES ('first')") },
          // Ends the shared transaction under the others, as a failed commit would: the savepoint
          // after it is gone, so the transaction fails where it stands.
          { db in try db.execute("ROLLBACK") },
          { db in try db.execute("INSERT INTO scratch VALUES ('last')") },
        ])
      for call in calls { await #expect(throws: QueueError.self) { try await call.value } }
      #expect(try await Self.scratchNames(copy.store).isEmpty)
      // The store goes on: the next call commits.
      try await copy.store.runDurably { db in try db.execute("INSERT INTO scratch VALUES ('after')") }
      #expect(try await Self.scratchNames(copy.store) == ["after"])
    }
  }

  @Test("a call alone in its commit that throws leaves nothing of its statements, and the store goes on")
  func aCallAloneInItsCommitThatThrowsLeavesNothing() async throws {
    try await Self.withScratchStore { copy in
      await #expect(throws: QueueError.invalid(message: "alone, after a statement")) {
        try await copy.store.runDurably { db in
          try db.execute("INSERT INTO scratch VALUES ('alone')")
          throw QueueError.invalid(message: "alone, after a statement")
        }
      }
      #expect(try await Self.scratchNames(copy.store).isEmpty)
      try await copy.store.runDurably { db in try db.execute("INSERT INTO scratch VALUES ('next')") }
      #expect(try await Self.scratchNames(copy.store) == ["next"])
    }
  }

  @Test("a process killed (-9) while eight tasks queue has every write it was given in the store")
  func aProcessKilledWhileEightTasksQueueHasEveryWriteItWasGivenInTheStore() async throws {
    let bench = try BenchBinary.require()
    for round in 0..<6 {
      let t = TestStore()
      let target = 200 + round * 60
      let store = t.url.path
      // The child is read and killed on a thread of its own: blocking reads on the test's task
      // would hold one of the few threads every other test's tasks run on.
      let given = try await offThePool { () throws -> [String] in
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: bench)
        child.arguments = ["queue-child", store, "8"]
        let out = Pipe()
        child.standardOutput = out
        child.standardError = FileHandle.nullDevice
        try child.run()
        // Read the IDs as they come; kill once a few hundred calls have returned.
        var text = ""
        let reader = out.fileHandleForReading
        while text.split(separator: "\n").count < target {
          let chunk = reader.availableData
          if chunk.isEmpty { break }
          text += String(decoding: chunk, as: UTF8.self)
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        text += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        // A line cut by the kill is no answered call.
        return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init).filter { $0.count == 36 }
      }
      #expect(given.count >= target, "round \(round): the child printed only \(given.count) IDs")
      let copy = try await t.open()
      defer { copy.close() }
      let held = Set(try await copy.queue.all().map(\.id))
      let lost = given.filter { !held.contains($0) }
      #expect(lost.isEmpty, "round \(round): \(lost.count) of \(given.count) returned writes are not in the store")
    }
  }

  /// Runs `body` on a fresh store with a `scratch(name)` table for calls to write into, then
  /// closes it (its folder lives until then).
  static func withScratchStore(_ body: (WorkingCopy) async throws -> Void) async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer {
      copy.close()
      withExtendedLifetime(t) {}
    }
    try await copy.store.runDurably { db in try db.execute("CREATE TABLE scratch(name TEXT)") }
    try await body(copy)
  }

  /// The names in `scratch`, in the order they were written.
  static func scratchNames(_ store: Store) async throws -> [String] {
    try await store.run { db in
      var names: [String] = []
      try db.query("SELECT name FROM scratch ORDER BY rowid") { names.append($0.text(0) ?? "") }
      return names
    }
  }

  /// Starts each body as a durable call, in order, while the store is held busy, so all of them
  /// gather for one shared commit; then lets the store go.
  static func gathered(_ store: Store, _ bodies: [@Sendable (SQLite) throws -> Void]) async -> [Task<Void, Error>] {
    let held = DispatchSemaphore(value: 0)
    store.queueAsync { held.wait() }
    var calls: [Task<Void, Error>] = []
    for (i, body) in bodies.enumerated() {
      calls.append(Task { try await store.runDurably(body) })
      #expect(await eventually { store.sharedCommit.withLock { $0.calls.count } == i + 1 })
    }
    held.signal()
    return calls
  }

  /// Blocks the store's queue until the returned semaphore is signalled, so the calls made
  /// meanwhile gather for one shared commit.
  private func holdStore(_ store: Store) -> DispatchSemaphore {
    let held = DispatchSemaphore(value: 0)
    store.queueAsync { held.wait() }
    return held
  }
}
