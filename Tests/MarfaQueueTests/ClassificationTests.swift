import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// One test per row of the classification table (contract 3.3), over real loopback HTTP.
@Suite struct ClassificationTests {
  @Test func aCreateAnsweredAsTheDoorsShapeIsAcceptedAndTheRowTakesItsVersion() async throws {
    let h = try await DrainHarness()
    let w = try await h.note()
    let report = try await h.copy.queue.drain()
    #expect(report.answered == 1)
    #expect(report.verdicts.map(\.verdict) == [.accepted])
    let after = try await h.write(w.id)
    #expect(after.verdict == .accepted)
    #expect(after.answer?.contains(w.itemId!) == true)
    #expect(h.requests("POST", "/items").first?.header("Idempotency-Key") == w.idempotencyKey)
    #expect(h.requests("POST", "/items").first?.header("Authorization") == "Bearer k1")
    // The update queued next is made against the version the answer gave.
    let update = try await h.copy.updateItem(id: w.itemId!, properties: .object([("title", .string("b"))]))
    #expect(update.baseVersion == 1)
  }

  @Test func aStaleUpdateMergedFieldByFieldIsMerged() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note", properties: ["title": "t", "prio": "low"])])
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("prio", .string("high"))]))
    h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["prio": "mid"]))
    let report = try await h.copy.queue.drain()
    #expect(report.answered == 1)
    #expect(try await h.write(w.id).verdict == .merged(fields: ["prio"]))
    #expect(h.requests("PATCH", "/items/n1").first?.query.contains("conflict=auto") == true)
  }

  @Test func aKeepBothCopiesCollisionIsConflictedWithTheSibling() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note", properties: ["body": "a"])])
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("body", .string("mine"))]))
    h.instance.edit(ConcurrentEdit(itemId: "n1", properties: ["body": "theirs"]))
    _ = try await h.copy.queue.drain()
    guard case .conflicted(let sibling, let fields) = try await h.write(w.id).verdict else {
      Issue.record("not conflicted")
      return
    }
    #expect(fields == ["body"])
    #expect(h.instance.item(sibling) != nil)
  }

  @Test(arguments: [
    ("5xx", ScriptedAnswer.serverFault, 500 as Int?),
    ("503", ScriptedAnswer.error(503, code: "write_contention", message: "busy"), 503),
    ("408", ScriptedAnswer.error(408, code: "request_timeout", message: "slow"), 408),
    ("dropped", ScriptedAnswer.drop, nil),
    ("gateway page", ScriptedAnswer.gatewayPage(status: 502), 502),
    ("401 naming no contract", ScriptedAnswer.unauthorized.withoutContract(), 401),
  ])
  func anEnvironmentalFailureLeavesTheWriteUnansweredUncountedAndEndsThePass(
    _ name: String, _ answer: ScriptedAnswer, _ status: Int?
  ) async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-env"), answer)])
    let first = try await h.note(id: "w-env")
    let second = try await h.note()
    let report = try await h.copy.queue.drain()
    #expect(report.answered == 0, "\(name)")
    #expect(report.undelivered == 2, "\(name)")
    #expect(report.unavailable != nil, "\(name)")
    #expect(report.stopped == nil)
    #expect(h.requests("POST", "/items").count == 1, "\(name): sent once in the pass")
    let w = try await h.write(first.id)
    #expect(w.verdict == nil)
    #expect(w.refusals == 0)
    #expect(w.lastFailure?.status == status)
    #expect(w.environmentalStreak == 1)
    #expect(try await h.write(second.id).sent == false)
    // The next drain resends under the same key and it lands.
    _ = try await h.copy.queue.drain()
    let again = try await h.write(first.id)
    #expect(again.verdict == .accepted)
    #expect(again.idempotencyKey == first.idempotencyKey)
    #expect(again.lastFailure == nil)
    #expect(again.environmentalStreak == 0)
  }

  @Test func aTimeoutIsEnvironmentalWithNoStatus() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-stall"), .stall)], timeout: 1)
    let w = try await h.note(id: "w-stall")
    let report = try await h.copy.queue.drain()
    #expect(report.undelivered == 1)
    let after = try await h.write(w.id)
    #expect(after.verdict == nil)
    // No answer came, so no status; the text says what happened, in the client's words.
    #expect(after.lastFailure?.status == nil)
    #expect(
      after.lastFailure?.text?.hasPrefix("the request timed out") == true, "\(String(describing: after.lastFailure))")
    #expect(after.environmentalStreak == 1)
  }

  @Test func aGatewayPageIsSaidToNameNoContractAndKeepsItsText() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-gw"), .gatewayPage(status: 502))])
    let w = try await h.note(id: "w-gw")
    let report = try await h.copy.queue.drain()
    #expect(report.unavailable?.contains("named no contract") == true)
    let after = try await h.write(w.id)
    #expect(after.lastFailure?.status == 502)
    #expect(after.lastFailure?.text?.isEmpty == false)
  }

  @Test func a429SetsLastFailureAddsNothingToTheStreakAndPassesOnRetryAfter() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-429"), .rateLimited(seconds: 12))])
    let w = try await h.note(id: "w-429")
    let report = try await h.copy.queue.drain()
    #expect(report.retryAfterSeconds == 12)
    #expect(report.undelivered == 1)
    let after = try await h.write(w.id)
    #expect(after.lastFailure?.status == 429)
    #expect(after.environmentalStreak == 0)
  }

  @Test func retryAfterIsCappedAt300Seconds() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-long"), .rateLimited(seconds: 9999))])
    _ = try await h.note(id: "w-long")
    #expect(try await h.copy.queue.drain().retryAfterSeconds == 300)
  }

  @Test func failureTextIsCutTo200UnicodeScalarsKeepingMultiByteAndCombiningCharacters() async throws {
    let text = String(repeating: "é", count: 150) + String(repeating: "e\u{301}", count: 100) + "版本冲突"
    let h = try await DrainHarness(rules: [.once(.write("w-text"), .status(503, body: text, contentType: "text/plain"))]
    )
    let w = try await h.note(id: "w-text")
    _ = try await h.copy.queue.drain()
    let failure = try await h.write(w.id).lastFailure
    #expect(failure?.status == 503)
    #expect(failure?.text?.unicodeScalars.count == 200)
    #expect(failure?.text == String(String(text.unicodeScalars.prefix(200))))
  }

  @Test("a 401 naming the contract parks the whole queue stops the drain and clears itself next time")
  func a401NamingTheContractParksTheWholeQueueStopsTheDrainAndClearsItselfNextTime() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-401"), .unauthorized)])
    let a = try await h.note(id: "w-401")
    let b = try await h.note()
    let report = try await h.copy.queue.drain()
    #expect(report.stopped?.contains("2 row(s) parked") == true)
    // The write that met the refusal was answered; the one the stop parked is counted nowhere.
    #expect(report.answered == 1)
    #expect(report.undelivered + report.held + report.unsent + report.unmade == 0)
    #expect(try await h.write(a.id).verdict?.blockedReason == .credentialRefused)
    #expect(try await h.write(b.id).verdict?.blockedReason == .credentialRefused)
    #expect(h.requests("POST", "/items").count == 1)
    let next = try await h.copy.queue.drain()
    #expect(next.answered == 2)
    #expect(try await h.write(a.id).idempotencyKey == a.idempotencyKey)
    #expect(try await h.write(a.id).verdict == .accepted)
  }

  @Test func a403WithAGrantBlocksCredentialRefusedWithTheGrantAndGoesOn() async throws {
    let h = try await DrainHarness(rules: [
      .once(.write("w-403"), .missingGrant(kind: "type", name: "note", level: "write"))
    ])
    let a = try await h.note(id: "w-403")
    let b = try await h.note()
    let report = try await h.copy.queue.drain()
    #expect(report.answered == 2)
    #expect(report.stopped == nil)
    let blocked = try await h.write(a.id).verdict
    #expect(blocked?.blockedReason == .credentialRefused)
    #expect(blocked?.refusal?.grant == MissingGrant(kind: .type, name: "note", level: .write))
    #expect(try await h.write(b.id).verdict == .accepted)
  }

  @Test func aCreateNamingAnUnclaimedSourceBlocksEveryCreateNamingItAndListsTheSource() async throws {
    let h = try await DrainHarness(rules: [.once(ScriptMatch(bodyContains: "\"crm\""), .unclaimedSource("crm"))])
    let a = try await h.copy.createItem(type: "note", properties: .object([]), id: "s1", source: "crm", sourceId: "1")
    let b = try await h.copy.createItem(type: "note", properties: .object([]), id: "s2", source: "crm", sourceId: "2")
    let c = try await h.note()
    let report = try await h.copy.queue.drain()
    #expect(report.unclaimedSources == ["crm"])
    #expect(try await h.write(a.id).verdict?.blockedReason == .credentialRefused)
    #expect(try await h.write(b.id).verdict?.blockedReason == .credentialRefused)
    #expect(try await h.write(c.id).verdict == .accepted)
    #expect(h.requests("POST", "/items").count == 2)
  }

  @Test func a422KeyReusedBlocksKeySpentOnTheFirstRefusal() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-422"), .keyReused)])
    let w = try await h.note(id: "w-422")
    let report = try await h.copy.queue.drain()
    #expect(report.answered == 1)
    let after = try await h.write(w.id)
    #expect(after.verdict?.blockedReason == .keySpent)
    #expect(after.refusals == 0)
    // Blocked writes are passed over until a release, which sends under a fresh key.
    _ = try await h.copy.queue.drain()
    #expect(h.requests("POST", "/items").count == 1)
    #expect(try await h.copy.queue.release(w.id))
    _ = try await h.copy.queue.drain()
    let released = try await h.write(w.id)
    #expect(released.verdict == .accepted)
    #expect(released.idempotencyKey != w.idempotencyKey)
  }

  @Test func the409sBlockAncestorUnavailableAndConflictUnresolved() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note"), SeedItem(id: "n2", type: "note")])
    h.instance.addRule(.once(.route("PATCH", "/items/n1"), .ancestorUnavailable))
    let a = try await h.copy.updateItem(id: "n1", properties: .object([("t", .number(1))]))
    h.instance.addRule(.once(.route("PATCH", "/items/n2"), .versionConflict))
    let b = try await h.copy.updateItem(id: "n2", properties: .object([("t", .number(1))]))
    let report = try await h.copy.queue.drain()
    #expect(report.answered == 2)
    #expect(try await h.write(a.id).verdict?.blockedReason == .ancestorUnavailable)
    let conflict = try await h.write(b.id).verdict
    #expect(conflict?.blockedReason == .conflictUnresolved)
    #expect(conflict?.refusal?.code == "version_conflict")
  }

  @Test func aKeyInFlightIsCountedAndTheFifthMakesTheWriteDead() async throws {
    let h = try await DrainHarness(rules: [ScriptRule(.write("w-fl"), answers: [.inFlight], repeatsLast: true)])
    let w = try await h.note(id: "w-fl")
    let other = try await h.note()
    let first = try await h.copy.queue.drain()
    #expect(first.answered == 2)
    #expect(try await h.write(w.id).refusals == 1)
    #expect(try await h.write(w.id).verdict == nil)
    #expect(try await h.write(other.id).verdict == .accepted)
    for _ in 0..<4 { _ = try await h.copy.queue.drain() }
    let dead = try await h.write(w.id)
    #expect(dead.verdict == .dead)
    #expect(dead.refusals == 5)
    _ = try await h.copy.queue.drain()
    #expect(h.requests("POST", "/items").filter { $0.bodyText.contains("w-fl") }.count == 5)
  }

  @Test("an unreadable 2xx is counted the pass goes on and the fifth makes it dead")
  func anUnreadable2xxIsCountedThePassGoesOnAndTheFifthMakesItDead() async throws {
    let h = try await DrainHarness(rules: [ScriptRule(.write("w-bad"), answers: [.unreadable2xx], repeatsLast: true)])
    let w = try await h.note(id: "w-bad")
    let other = try await h.note()
    // Counted, as the contract counts a 2xx it cannot read; the pass goes on to the next write.
    let first = try await h.copy.queue.drain()
    #expect(first.answered == 2 && first.undelivered == 0, "\(first)")
    #expect(try await h.write(other.id).verdict == .accepted)
    var after = try await h.write(w.id)
    #expect(after.verdict == nil && after.refusals == 1)
    let attempt = try await h.copy.queue.attempts(of: w.id).list.first
    #expect(
      attempt?.text?.hasPrefix("the instance's 200 answer could not be read") == true, "\(String(describing: attempt))")
    for _ in 0..<4 { _ = try await h.copy.queue.drain() }
    after = try await h.write(w.id)
    #expect(after.verdict == .dead, "\(String(describing: after.verdict))")
    #expect(after.refusals == QueueLimits.ceiling)
  }

  @Test(
    "a refusal whose message holds a lone surrogate keeps its code and reason with U+FFFD in its place",
    arguments: [#"bad \ud800 half"#, #"bad \udc00 half"#, #"bad \ud800\u0041 half"#])
  func aRefusalWhoseMessageHoldsALoneSurrogateKeepsItsCodeAndReasonWithUFFFDInItsPlace(_ escaped: String)
    async throws
  {
    let body =
      #"{"error":{"code":"validation_error","message":"\#(escaped)","details":{"errors":[{"field":"t","message":"\#(escaped)"}]}}}"#
    let h = try await DrainHarness(rules: [.once(.write("w-sur"), .status(400, body: body))])
    let w = try await h.note(id: "w-sur")
    _ = try await h.copy.queue.drain()
    guard case .refused(let refusal) = try await h.write(w.id).verdict else {
      Issue.record("not refused: \(String(describing: try await h.write(w.id).verdict))")
      return
    }
    #expect(refusal.reason == "validation_error")
    #expect(refusal.code == "validation_error")
    #expect(refusal.message?.hasPrefix("bad \u{FFFD}") == true, "\(refusal.message ?? "nil")")
    #expect(refusal.message?.hasSuffix(" half") == true)
    #expect(refusal.fields == [FieldRefusal(field: "t", message: refusal.message ?? "")])
    // Input given to verdicts itself is still refused, not changed.
    #expect(JSONValue.parse(#"{"a":"\ud800"}"#) == nil)
  }

  @Test func aValidationRefusalIsRefusedWithItsCodeMessageAndFields() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-400"), .validation([("properties.title", "is required")]))])
    let w = try await h.note(id: "w-400")
    _ = try await h.copy.queue.drain()
    guard case .refused(let refusal) = try await h.write(w.id).verdict else {
      Issue.record("not refused")
      return
    }
    #expect(refusal.reason == "validation_error")
    #expect(refusal.code == "validation_error")
    #expect(refusal.message?.isEmpty == false)
    #expect(refusal.fields == [FieldRefusal(field: "properties.title", message: "is required")])
    // A refused write is never released and is not sent again.
    #expect(try await h.copy.queue.release(w.id) == false)
  }

  @Test func aTrashedRowIsRefusedWithTrashedSet() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note", state: "trashed")])
    let w = try await h.copy.updateItem(id: "n1", properties: .object([("a", .number(1))]), version: 1)
    _ = try await h.copy.queue.drain()
    guard case .refused(let refusal) = try await h.write(w.id).verdict else {
      Issue.record("not refused")
      return
    }
    #expect(refusal.trashed)
  }

  @Test func anAnswerNamingAnotherContractEndsTheDrainAndTheWriteIsResentUnderItsKey() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-c3"), ScriptedAnswer.normal.contract("3"))])
    let w = try await h.note(id: "w-c3")
    await #expect(throws: QueueError.contractMismatch(served: "3")) { _ = try await h.copy.queue.drain() }
    #expect(try await h.write(w.id).verdict == nil)
    _ = try await h.copy.queue.drain()
    let after = try await h.write(w.id)
    #expect(after.verdict == .accepted)
    #expect(after.replayed)
    #expect(h.instance.appliedCount(key: w.idempotencyKey) == 1)
  }

  @Test func aRedirectIsNeverFollowed() async throws {
    let h = try await DrainHarness(rules: [
      .once(.write("w-3xx"), ScriptedAnswer.status(307, body: "").header("Location", "http://127.0.0.1:1/x"))
    ])
    let w = try await h.note(id: "w-3xx")
    await #expect(throws: QueueError.self) { _ = try await h.copy.queue.drain() }
    #expect(try await h.write(w.id).verdict == nil)
    #expect(try await h.write(w.id).idempotencyKey == w.idempotencyKey)
  }

  @Test func aWriteWaitingOnARefusedCreateIsRefusedUnsentNamingIt() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-c"), .validation([("title", "bad")]))])
    let create = try await h.note(id: "w-c")
    let tag = try await h.copy.addTag(item: "w-c", tag: "t")
    let report = try await h.copy.queue.drain()
    #expect(report.answered == 1)
    #expect(report.unsent == 1)
    guard case .refused(let refusal) = try await h.write(tag.id).verdict else {
      Issue.record("not refused")
      return
    }
    #expect(refusal.reason == "the create_item it waits for was refused")
    #expect(refusal.code == nil)
    _ = create
  }

  @Test func aDeleteWithNoConfirmedVersionIsRefusedUnsent() async throws {
    let h = try await DrainHarness(fill: true)
    let d = try await h.copy.deleteItem(id: "x", version: 0)
    let report = try await h.copy.queue.drain()
    #expect(report.unsent == 1)
    #expect(try await h.write(d.id).verdict?.refusal?.reason.contains("no confirmed server version") == true)
  }

  @Test func theCountsAccountForEveryWriteThePassCameTo() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-5"), .serverFault)])
    let a = try await h.note(id: "w-1")
    _ = try await h.copy.addTag(item: a.itemId!, tag: "x")
    let refusedCreate = try await h.note(id: "w-r")
    h.instance.addRule(.once(.write("w-r"), .validation([("t", "bad")])))
    _ = try await h.copy.addTag(item: refusedCreate.itemId!, tag: "y")
    _ = try await h.note(id: "w-5")
    _ = try await h.note(id: "w-6")
    let r = try await h.copy.queue.drain()
    #expect(r.answered == 3)
    #expect(r.unsent == 1)
    #expect(r.undelivered == 2)
    #expect(r.answered + r.held + r.undelivered + r.unsent + r.unmade == 6)
  }

  @Test func aRefusalAfterAnEnvironmentalFailureClearsTheLastFailureAndTheStreak() async throws {
    let h = try await DrainHarness(rules: [
      ScriptRule(.write("w-then-400"), answers: [.serverFault, .validation([("title", "bad")])])
    ])
    let w = try await h.note(id: "w-then-400")
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(w.id).lastFailure?.status == 500)
    #expect(try await h.write(w.id).environmentalStreak == 1)
    _ = try await h.copy.queue.drain()
    let refused = try await h.write(w.id)
    #expect(refused.verdict?.wireName == "refused")
    #expect(refused.lastFailure == nil)
    #expect(refused.environmentalStreak == 0)
  }

  @Test func aCountedFailureAfterAnEnvironmentalOneClearsBoth() async throws {
    let h = try await DrainHarness(rules: [ScriptRule(.write("w-then-fl"), answers: [.drop, .inFlight])])
    let w = try await h.note(id: "w-then-fl")
    _ = try await h.copy.queue.drain()
    #expect(try await h.write(w.id).environmentalStreak == 1)
    _ = try await h.copy.queue.drain()
    let counted = try await h.write(w.id)
    #expect(counted.refusals == 1)
    #expect(counted.lastFailure == nil)
    #expect(counted.environmentalStreak == 0)
  }
}
