import Foundation
import ScriptedInstance
import TestSupport
import Testing

@testable import MarfaQueue

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The seed page's rules as docs/rules.md defines them: failingAlone, instanceChanged,
/// the fill's preconditions, withdraw's read-back, restart safety, updates().
@Suite struct SeedRuleTests {
  @Test func aWriteFailingWhileOthersAreAcceptedIsBlockedFailingAloneAfterThreeDrains() async throws {
    let h = try await DrainHarness(rules: [ScriptRule(.write("w-fail"), answers: [.serverFault], repeatsLast: true)])
    let failing = try await h.note(id: "w-fail")
    let behind = try await h.copy.addTag(item: "w-fail", tag: "t")
    _ = try await h.note("first")
    // Drain 1: the first failure ends the pass; the tag held behind the failing create is
    // counted held and stays waiting, not undelivered.
    let r1 = try await h.copy.queue.drain()
    #expect(r1.answered == 0)
    #expect(r1.undelivered == 2)
    #expect(r1.held == 1)
    #expect(try await h.write(behind.id).waiting)
    #expect(try await h.write(failing.id).environmentalStreak == 1)
    // Drain 2: it failed last time too, so it is set aside and the others go.
    let r2 = try await h.copy.queue.drain()
    #expect(r2.answered == 1)
    #expect(r2.held == 1)
    #expect(try await h.write(behind.id).waiting)
    #expect(try await h.write(failing.id).environmentalStreak == 2)
    #expect(try await h.write(failing.id).verdict == nil)
    // Drain 3: the streak reaches 3 while another write is answered.
    _ = try await h.note("second")
    let r3 = try await h.copy.queue.drain()
    #expect(r3.answered == 1)
    let blocked = try await h.write(failing.id)
    #expect(blocked.verdict == .blocked(reason: .failingAlone, refusal: nil))
    #expect(blocked.environmentalStreak == 3)
    #expect(blocked.lastFailure?.status == 500)
    #expect(blocked.lastFailure?.text?.contains("internal_error") == true)
    #expect(try await h.write(behind.id).verdict == nil)
    // Never sent again until released; the writes behind it wait.
    let sentBefore = h.requests("POST", "/items").filter { $0.bodyText.contains("w-fail") }.count
    _ = try await h.copy.queue.drain()
    #expect(h.requests("POST", "/items").filter { $0.bodyText.contains("w-fail") }.count == sentBefore)
    #expect(try await h.write(behind.id).waiting)
    // A release sends it under a fresh key and frees what waited.
    h.instance.clearRules()
    #expect(try await h.copy.queue.release(failing.id))
    let released = try await h.write(failing.id)
    #expect(released.lastFailure == nil)
    #expect(released.environmentalStreak == 0)
    _ = try await h.copy.queue.drain()
    let landed = try await h.write(failing.id)
    #expect(landed.verdict == .accepted)
    #expect(landed.idempotencyKey != failing.idempotencyKey)
    #expect(try await h.write(behind.id).verdict == .accepted)
  }

  @Test func aFullOutageBlocksNothing() async throws {
    let h = try await DrainHarness(rules: [
      ScriptRule(ScriptMatch(methods: ["POST"]), answers: [.serverFault], repeatsLast: true)
    ])
    let a = try await h.note(id: "o1")
    let b = try await h.note(id: "o2")
    for _ in 0..<5 { _ = try await h.copy.queue.drain() }
    #expect(try await h.write(a.id).verdict == nil)
    #expect(try await h.write(b.id).verdict == nil)
    #expect(try await h.write(a.id).environmentalStreak == 5)
  }

  @Test func anUnreachableInstanceSendsNothingAndCountsNothing() async throws {
    let h = try await DrainHarness()
    let w = try await h.note()
    h.instance.offline()
    let report = try await h.copy.queue.drain()
    #expect(report.undelivered == 1)
    #expect(report.answered == 0)
    #expect(report.unavailable?.contains("could not say which instance") == true)
    #expect(try await h.write(w.id).environmentalStreak == 0)
  }

  @Test(
    "another instance at the origin expires the copy then writes queued for the old one are blocked instance_changed")
  func anotherInstanceAtTheOriginExpiresTheCopyThenWritesQueuedForTheOldOneAreBlockedInstanceChanged()
    async throws
  {
    let h = try await DrainHarness()
    let landed = try await h.note(id: "i1")
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(landed.id).verdict == .accepted)
    let a = try await h.note(id: "i2")
    let b = try await h.copy.createItem(type: "note", properties: .object([]), id: "i3")
    h.instance.switchInstance(to: "22222222-0000-7000-8000-000000000000", keepData: true)
    let postsBefore = h.requests("POST", "/items").count
    await #expect(throws: QueueError.copyExpired(reason: "instance_changed")) { _ = try await h.copy.queue.drain() }
    #expect(h.requests("POST", "/items").count == postsBefore)
    #expect(try await h.copy.status().fill == .expired)
    try await h.copy.fill()
    let report = try await h.copy.queue.drain()
    #expect(report.unsent == 2)
    #expect(try await h.write(a.id).verdict?.blockedReason == .instanceChanged)
    #expect(h.requests("POST", "/items").count == postsBefore)
    // Release re-stamps it with the instance there now and sends it under a fresh key.
    #expect(try await h.copy.queue.release(a.id))
    let restamped = try await h.write(a.id)
    #expect(restamped.instanceId == "22222222-0000-7000-8000-000000000000")
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(a.id).verdict == .accepted)
    // Withdraw reads the row from the new instance and takes the write out.
    #expect(try await h.copy.queue.withdraw(b.id))
    await #expect(throws: QueueError.notFound(id: b.id)) { _ = try await h.write(b.id) }
    #expect(h.requests("GET", "/items/i3").count == 1)
  }

  @Test func aDrainBeforeAnyFillThrowsNoCursorAndSendsNothing() async throws {
    let h = try await DrainHarness(fill: false)
    let w = try await h.note()
    await #expect(throws: QueueError.noCursor) { _ = try await h.copy.queue.drain() }
    #expect(h.requests("POST", "/items").isEmpty)
    #expect(try await h.write(w.id).instanceId == nil)
    try await h.copy.fill()
    #expect(try await h.write(w.id).instanceId == Scenario.defaultInstanceId)
  }

  @Test func aFillThatStopsMidwayLeavesItUnderwayAndTheDrainThrowsHydrationIncomplete() async throws {
    let h = try await DrainHarness(rules: [.always(.route("GET", "/items"), .serverFault)], fill: false)
    _ = try await h.note()
    await #expect(throws: QueueError.self) { try await h.copy.fill() }
    #expect(try await h.copy.status().fill == .underway)
    await #expect(throws: QueueError.hydrationIncomplete) { _ = try await h.copy.queue.drain() }
    #expect(h.requests("POST", "/items").isEmpty)
  }

  @Test(.disabled(if: SanitizerRun.active, "a wall-clock bound: under a sanitizer the code runs 2–20× slower"))
  func aFillReadsTheCursorAndEveryItemPage() async throws {
    let items = (0..<450).map { SeedItem(id: "seed-\($0)", type: "note", properties: ["n": .number(Double($0))]) }
    let h = try await DrainHarness(items: items)
    let status = try await h.copy.status()
    #expect(status.fill == .complete)
    #expect(status.cursor != nil)
    #expect(status.instanceId == Scenario.defaultInstanceId)
    #expect(h.requests("GET", "/items").count == 3)
    // The copy holds the rows: an update names the version without being told.
    let w = try await h.copy.updateItem(id: "seed-449", properties: .object([("n", .number(1))]))
    #expect(w.baseVersion == 1)
  }

  @Test func aCatchUpTooOldExpiresTheCopyKeepingTheQueueUntilAFill() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note")])
    let w = try await h.note()
    try await h.copy.catchUp()
    h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["title": "theirs"]))
    h.instance.forgetEvents()
    await #expect(throws: QueueError.copyExpired(reason: "catchup_too_old")) { try await h.copy.catchUp() }
    await #expect(throws: QueueError.copyExpired(reason: "catchup_too_old")) { _ = try await h.copy.queue.drain() }
    #expect(try await h.copy.queue.all().map(\.id) == [w.id])
    try await h.copy.fill()
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(w.id).verdict == .accepted)
  }

  @Test func withdrawReadsTheRowFirstAndChangesNothingWhenTheReadFails() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note")])
    h.instance.addRule(.once(.route("PATCH", "/items/n1"), .versionConflict))
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("a", .number(1))]))
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(w.id).verdict?.blockedReason == .conflictUnresolved)
    h.instance.addRule(.once(.route("GET", "/items/n1"), .serverFault))
    await #expect(throws: QueueError.self) { _ = try await h.copy.queue.withdraw(w.id) }
    #expect(try await h.write(w.id).verdict?.blockedReason == .conflictUnresolved)
    #expect(try await h.copy.queue.withdraw(w.id))
    #expect(try await h.copy.queue.all().isEmpty)
  }

  @Test func withdrawingACreateRefusesUnsentEveryWriteWaitingOnItAndNoneIsReleasable() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-anc"), .ancestorUnavailable)])
    let create = try await h.copy.createItem(type: "note", properties: .object([]), id: "w-anc", version: 3)
    let tag = try await h.copy.addTag(item: "w-anc", tag: "t")
    let edge = try await h.copy.createEdge(source: "w-anc", target: "w-anc", type: "self")
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(create.id).verdict?.blockedReason == .ancestorUnavailable)
    #expect(try await h.copy.queue.withdraw(create.id))
    for id in [tag.id, edge.id] {
      let w = try await h.write(id)
      #expect(w.verdict?.refusal?.reason == "the create_item it waits for was withdrawn")
      #expect(try await h.copy.queue.release(id) == false)
    }
  }

  @Test("a drain killed between send and answer resends under the same key and the instance replays")
  func aDrainKilledBetweenSendAndAnswerResendsUnderTheSameKeyAndTheInstanceReplays() async throws {
    let h = try await DrainHarness()
    let w = try await h.note(id: "w-replay")
    // The instance applies the write, but its answer never arrives (as if the drainer died).
    h.instance.addRule(.once(.write("w-replay"), .drop))
    let body = try await h.write(w.id).body.text
    var request = URLRequest(url: h.url.appendingPathComponent("items"))
    request.httpMethod = "POST"
    request.setValue(w.idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(body.utf8)
    h.instance.clearRules()
    _ = try await URLSession.shared.data(for: request)
    #expect(h.instance.appliedCount(key: w.idempotencyKey) == 1)
    _ = try await h.copy.queue.drain()
    let after = try await h.write(w.id)
    #expect(after.verdict == .accepted)
    #expect(after.replayed)
    #expect(h.instance.appliedCount(key: w.idempotencyKey) == 1)
  }

  @Test func heldUpdatesDrainWhenTheInstanceComesBack() async throws {
    let h = try await DrainHarness()
    h.instance.offline()
    let w = try await h.note()
    var updates = h.copy.updates().makeAsyncIterator()
    var sawUnreachable = false
    var drained = false
    // Each look waits for the next update; the stream's end ends the wait too.
    try await eventually(within: .seconds(20), every: .zero) {
      guard let u = await updates.next() else { return true }
      switch u {
      case .reachable(false):
        sawUnreachable = true
        try h.instance.online()
      case .drained(let r) where r.answered == 1:
        drained = true
      default: break
      }
      return drained
    }
    #expect(sawUnreachable)
    #expect(drained)
    #expect(try await h.write(w.id).verdict == .accepted)
  }

  @Test func aCatchUpTakesAnotherWritersChangeIntoTheCopy() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note", properties: ["title": "a"])])
    h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["title": "theirs"]))
    try await h.copy.catchUp()
    // The copy now holds version 2: an update made without naming a version is based on it.
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("title", .string("mine"))]))
    #expect(w.baseVersion == 2)
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(w.id).verdict == .accepted)
  }
}
