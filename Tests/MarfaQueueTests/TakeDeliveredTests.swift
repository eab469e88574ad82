import Foundation
import Testing

@testable import MarfaQueue

/// `takeAnswered(deliveringFirst:)`: answered writes leave the queue only once they were delivered.
@Suite struct TakeDeliveredTests {
  struct DeliveryFailed: Error {}

  func answered(_ copy: WorkingCopy, count: Int) async throws -> [String] {
    var ids: [String] = []
    for i in 0..<count {
      let w = try await copy.createItem(type: "note", properties: .object([("n", .int(i))]))
      try await copy.forceVerdict(w.id, .accepted)
      ids.append(w.id)
    }
    return ids
  }

  @Test func aDeliveryThatFailsLeavesEveryAnsweredWriteInTheQueue() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let ids = try await answered(copy, count: 5)
    let handed = SharedIDs()
    await #expect(throws: DeliveryFailed.self) {
      _ = try await copy.queue.takeAnswered(deliveringFirst: { writes in
        handed.set(writes.map(\.id))
        throw DeliveryFailed()
      })
    }
    #expect(handed.get() == ids)
    #expect(try await copy.queue.all().map(\.id) == ids)
    #expect(try await copy.queue.counts().answered == 5)
  }

  @Test func aDeliveryThatSucceedsClearsTheWritesItWasGiven() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let ids = try await answered(copy, count: 3)
    let waiting = try await copy.createItem(type: "note", properties: .object([]))
    let handed = SharedIDs()
    let taken = try await copy.queue.takeAnswered(deliveringFirst: { handed.set($0.map(\.id)) })
    #expect(taken.map(\.id) == ids)
    #expect(handed.get() == ids)
    #expect(try await copy.queue.all().map(\.id) == [waiting.id])
    let none = try await copy.queue.takeAnswered(deliveringFirst: { handed.set($0.map(\.id)) })
    #expect(none.isEmpty && handed.get().isEmpty)
  }

  /// Ids handed out of a `@Sendable` closure.
  final class SharedIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [String] = []
    func set(_ new: [String]) { lock.withLock { ids = new } }
    func get() -> [String] { lock.withLock { ids } }
  }
}
