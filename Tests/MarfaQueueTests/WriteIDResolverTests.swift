import Testing

@testable import MarfaQueue

/// A write ID as a person types it: full, shown short, prefix, suffix, ambiguous, unknown.
@Suite struct WriteIDResolverTests {
  static let a = "0190f1a2-b3c4-7d5e-8f60-1111aaaa43da"
  static let b = "0190f1a2-b3c4-7d5e-8f60-2222bbbb5d73"
  static let c = "0190f1a2-ffff-7d5e-8f60-3333cccc5d73"
  let resolver = WriteIDResolver(ids: [a, b, c, "w-accept"])

  @Test func theFullIDNamesItsWrite() {
    #expect(resolver.resolve(Self.a) == .found(Self.a))
    #expect(resolver.resolve("  \(Self.a.uppercased())\n") == .found(Self.a))
  }

  @Test func aShortIDUnderTenCharactersIsTakenWhole() {
    #expect(resolver.resolve("w-accept") == .found("w-accept"))
  }

  @Test func theShortFormAListShowsNamesItsWriteWithOrWithoutTheEllipsis() {
    #expect(resolver.resolve("…aaaa43da") == .found(Self.a))
    #expect(resolver.resolve("...aaaa43da") == .found(Self.a))
    #expect(resolver.resolve("~aaaa43da") == .found(Self.a))
    #expect(resolver.resolve("aaaa43da") == .found(Self.a))
  }

  @Test func aUniquePrefixOrSuffixOfSixCharactersNamesItsWrite() {
    #expect(resolver.resolve("0190f1a2-ff") == .found(Self.c))
    #expect(resolver.resolve("bb5d73") == .found(Self.b))
    #expect(resolver.resolve("0190f1a2-ff…") == .found(Self.c))
  }

  @Test func aPartSharedByMoreThanOneWriteIsAmbiguousAndListsThemAll() {
    #expect(resolver.resolve("0190f1a2") == .ambiguous([Self.a, Self.b, Self.c]))
    #expect(resolver.resolve("…5d73") != .found(Self.b))
    #expect(resolver.resolve("cc5d73") == .found(Self.c))
    #expect(resolver.resolve("c5d73") == .unknown(closest: []))
    #expect(QueueError.unknownID(typed: "c5d73", closest: []).message.hasSuffix("at least 6 characters of either end)"))
  }

  @Test func anEllipsisPutsThePartAtItsEndOnly() {
    // A suffix typed as a prefix (ellipsis after it) is not taken as the suffix.
    #expect(resolver.resolve("aaaa43da…") == .unknown(closest: resolver.closest(to: "aaaa43da")))
  }

  @Test func fewerThanSixCharactersNeverNameAWriteByPart() {
    #expect(resolver.resolve("43da") != .found(Self.a))
    if case .found = resolver.resolve("3da") { Issue.record("3 characters named a write") }
  }

  @Test func anUnknownIDSuggestsTheClosestIDsFirst() {
    // One character off the shown form of a.
    guard case .unknown(let closest) = resolver.resolve("…aaab43da") else {
      Issue.record("a mistyped id was found")
      return
    }
    #expect(closest.first == Self.a)
    #expect(resolver.resolve("zzzzzzzzzzzz") == .unknown(closest: []))
  }

  @Test func theErrorsSayWhatMatchedAndWhatIsClose() {
    #expect(throws: QueueError.ambiguousID(typed: "0190f1a2", matches: [Self.a, Self.b, Self.c])) {
      try resolver.id(for: "0190f1a2")
    }
    let ambiguous = QueueError.ambiguousID(typed: "0190f1a2", matches: [Self.a, Self.b, Self.c])
    #expect(ambiguous.code == "ambiguous")
    #expect(ambiguous.message.contains(Self.a) && ambiguous.message.contains(Self.c))
    let unknown = QueueError.unknownID(typed: "…aaab43da", closest: [Self.a])
    #expect(unknown.code == "not_found")
    #expect(unknown.message == "the queue holds no write …aaab43da; the closest: \(Self.a)")
  }

  @Test func aLongPasteIsAnsweredAtOnceWithNoSuggestion() {
    // A paste into `:` (which takes text of any length) among thousands of long IDs: no edit
    // distance is worked out past 256 characters, where each would cost the text's length squared.
    let ids = (0..<2_000).map { "\($0)-" + String(repeating: "ab", count: 300) }
    let typed = String(repeating: "ab", count: 50_000)
    let started = ContinuousClock.now
    #expect(WriteIDResolver(ids: ids).resolve(typed) == .unknown(closest: []))
    #expect(ContinuousClock.now - started < .seconds(5))
  }
}
