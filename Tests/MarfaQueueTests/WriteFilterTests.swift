import Foundation
import Testing

@testable import MarfaQueue

/// The filter's field terms, in Swift and in the store's SQL, agree.
@Suite struct WriteFilterTests {
  static func w(
    _ id: String, _ kind: WriteKind = .updateItem, item: String = "tour-a", verdict: Verdict? = nil, status: Int? = nil,
    streak: Int = 0
  ) -> QueuedWrite {
    QueuedWrite(
      id: id, kind: kind, itemId: item, idempotencyKey: "k-\(id)", body: .object([]), verdict: verdict,
      lastFailure: status.map { LastFailure(status: $0, text: "Bad Gateway") }, environmentalStreak: streak,
      queuedAt: "2026-01-01T00:00:00.000Z")
  }

  static let writes = [
    w("w-spent", verdict: .blocked(reason: .keySpent, refusal: nil)),
    w("w-alone", item: "tour-b", verdict: .blocked(reason: .failingAlone, refusal: nil), status: 502, streak: 3),
    w("w-new", .createItem, item: "other"),
    w("w-refused", verdict: .refused(Refusal(reason: "validation_error"))),
  ]

  func ids(_ text: String) -> [String] {
    let f = WriteFilter(text)!
    return Self.writes.filter(f.matches).map(\.id)
  }

  @Test func fieldTermsMatchTheirField() {
    #expect(ids("reason:key_spent") == ["w-spent"])
    #expect(ids("kind:create_item") == ["w-new"])
    #expect(ids("status:502") == ["w-alone"])
    #expect(ids("verdict:refused") == ["w-refused"])
    #expect(ids("verdict:waiting") == ["w-new"])
    #expect(ids("row:tour-*") == ["w-spent", "w-alone", "w-refused"])
    #expect(ids("streak:>=2") == ["w-alone"])
    #expect(ids("streak:<1") == ["w-spent", "w-new", "w-refused"])
  }

  @Test func aMinusNegatesAndEveryTermMustHold() {
    #expect(ids("-row:tour-*") == ["w-new"])
    #expect(ids("row:tour-* -verdict:refused reason:key_spent") == ["w-spent"])
    #expect(ids("ALONE") == ["w-alone"])
  }

  @Test("a space or a tab before a combining mark still parts two words and a minus before one negates")
  func aSpaceOrATabBeforeACombiningMarkStillPartsTwoWordsAndAMinusBeforeOneNegates() {
    // Found by the filter fuzz target: " \u{301}" is one Character, so words split by Character
    // ran together where a tab before the same mark parted them, and the filter printed back
    // from its terms read as another.
    let accent = "\u{301}"
    let parted = WriteFilter("alone \(accent)x")
    #expect(parted == WriteFilter("alone\t\(accent)x"))
    #expect(parted?.terms.count == 2)
    #expect(WriteFilter("-\(accent)x")?.terms.first?.negated == true)
  }

  @Test func theLenientInitReadsAnUnknownFieldOrABadNumberAsPlainText() {
    #expect(ids("colour:red").isEmpty)
    #expect(WriteFilter("status:abc") == WriteFilter("status:abc"))
    #expect(WriteFilter("") == nil && WriteFilter("   ") == nil)
  }

  @Test func parseRefusesAnUnknownFieldNamingTheFieldsThereAre() {
    #expect(throws: WriteFilterProblem.self) { try WriteFilter.parse("reasn:x") }
    #expect(
      WriteFilter.problem(in: "row:tour-* -reasn:x")
        == "unknown filter field 'reasn' in 'reasn:x' (did you mean reason?); the fields are reason, kind, status, verdict, row, streak, body"
    )
    #expect(
      WriteFilter.problem(in: "colour:red")?.hasSuffix(
        "the fields are reason, kind, status, verdict, row, streak, body")
        == true)
    #expect(WriteFilter.problem(in: "colour:red")?.contains("did you mean") == false)
  }

  @Test func parseRefusesAValueItsFieldCannotTake() {
    #expect(WriteFilter.problem(in: "status:abc") == "'status:abc': status takes an HTTP status (status:502)")
    #expect(WriteFilter.problem(in: "streak:>x")?.hasPrefix("'streak:>x': streak takes a number") == true)
  }

  @Test func parseTakesEveryFieldAndWordsThatAreNotFieldTerms() throws {
    for text in [
      "reason:key_spent", "kind:create_item", "status:502", "verdict:waiting", "row:tour-*", "rows:a", "streak:>=2",
      "-kind:add_tag", "09:41", "a-b:c", ":x", "reason:", "plain words", "",
    ] {
      #expect(WriteFilter.problem(in: text) == nil, "\(text)")
      #expect(try WriteFilter.parse(text) == WriteFilter(text), "\(text)")
    }
  }

  @Test func theStoreFiltersPagesAsTheSwiftMatcherDoes() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    var ids: [String: String] = [:]
    for (name, item) in [("a", "tour-a"), ("b", "tour-b"), ("c", "other")] {
      ids[name] = try await copy.createItem(type: "note", properties: .object([]), id: item).id
    }
    try await copy.forceVerdict(ids["a"]!, .blocked(reason: .keySpent))
    try await copy.forceVerdict(ids["b"]!, .blocked(reason: .failingAlone))
    let blocked = try await copy.queue.page(.blocked, offset: 0, limit: 10, filter: "reason:failing_alone")
    #expect(blocked.writes.map(\.id) == [ids["b"]!])
    #expect(blocked.total == 1)
    let notTour = try await copy.queue.page(.waiting, offset: 0, limit: 10, filter: "-row:tour-*")
    #expect(notTour.writes.map(\.id) == [ids["c"]!])
    let everyPane = try await copy.queue.all()
    for text in ["row:tour-*", "-reason:key_spent", "kind:create_item verdict:blocked", "tour"] {
      let f = WriteFilter(text)!
      var fromStore: [String] = []
      for pane in QueuePane.allCases {
        fromStore += try await copy.queue.page(pane, offset: 0, limit: 100, filter: text).writes.map(\.id)
      }
      #expect(Set(fromStore) == Set(everyPane.filter(f.matches).map(\.id)), "\(text)")
    }
  }

  @Test func bodyFindsAWriteByWhatItsBodySaysInTheStoreAndInSwift() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    for i in 4_998..<5_003 {
      _ = try await copy.createItem(type: "note", properties: .object([("title", .string("w\(i)"))]))
    }
    let page = try await copy.queue.page(.waiting, offset: 0, limit: 10, filter: "body:w5000")
    #expect(page.total == 1)
    #expect(page.writes.first?.body["properties"]?["title"]?.stringValue == "w5000")
    let all = try await copy.queue.all()
    #expect(all.filter(WriteFilter("body:W5000")!.matches).map(\.id) == page.writes.map(\.id))
    #expect(try await copy.queue.page(.waiting, offset: 0, limit: 10, filter: "-body:w5000").total == 4)
    #expect(try WriteFilter.parse("body:x") != nil)
  }

  @Test func statusFindsTheWriteThatMetARefusedKeyNotTheWritesParkedBehindIt() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-401"), .unauthorized)])
    _ = try await h.note("first")
    _ = try await h.note("met", id: "w-401")
    _ = try await h.note("parked")
    _ = try await h.copy.queue.drain()
    let blocked = try await h.copy.queue.page(.blocked, offset: 0, limit: 10, filter: nil)
    #expect(blocked.total == 2)
    let met = try await h.copy.queue.page(.blocked, offset: 0, limit: 10, filter: "status:401")
    #expect(met.writes.map(\.itemId) == ["w-401"])
  }
}
