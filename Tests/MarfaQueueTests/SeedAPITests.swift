import Foundation
import Testing

/// The public API of `MarfaQueue` that the seed page (queue and verdicts) names, checked in as a
/// listing and checked against the sources: each declaration must still be declared `public`
/// exactly so. A test in this package cannot tell `public` from `package` by compiling (both are
/// visible here), so the listing is read against the declarations' text.
@Suite struct SeedAPITests {
  /// The types the seed page names, each declared `public`.
  static let types = [
    "struct Queue", "final class WorkingCopy", "struct DrainReport", "struct DrainVerdict", "enum QueueError",
    "struct QueuedWrite", "enum Verdict", "struct Refusal", "enum BlockedReason", "struct LastFailure",
    "enum Change", "enum LiveQuery",
  ]

  /// The members the seed page names, each a line that begins `public` and then this.
  static let members = [
    // Send the queue; a held updates() sequence; a working key.
    "func drain() async throws -> DrainReport", "func updates() -> AsyncStream<Update>",
    "func useKey(_ key: String) async throws", "func fill() async throws",
    // The DrainReport's fields.
    "var answered: Int", "var held: Int", "var undelivered: Int", "var unsent: Int", "var unmade: Int",
    "var verdicts: [DrainVerdict]", "var unavailable: String?", "var stopped: String?",
    "var retryAfterSeconds: Int?",
    // A DrainVerdict's.
    "var verdict: Verdict?", "var refusals: Int", "var replayed: Bool",
    // Read the queue.
    "func all() async throws -> [QueuedWrite]", "func takeAnswered() async throws -> [QueuedWrite]",
    "func forgetAnswered() async throws -> Int", "func forgetAnswered(ids: [String]) async throws -> Int",
    "func discard(_ id: String) async throws -> Bool", "func release(_ id: String) async throws -> Bool",
    "func release(reason: BlockedReason) async throws -> Int", "func withdraw(_ id: String) async throws -> Bool",
    // A QueuedWrite's.
    "var kind: WriteKind", "var body: JSONValue", "var dependsOn: [String]", "var follows: String?",
    "var answer: String?", "var waiting: Bool", "var lastFailure: LastFailure?", "var environmentalStreak: Int",
    // A Refusal's, a LastFailure's.
    "var reason: String", "var code: String?", "var message: String?", "var fields: [FieldRefusal]",
    "var trashed: Bool", "var grant: MissingGrant?", "var status: Int?", "var text: String?",
  ]

  /// The cases the seed page names, each in the file that declares its (public) type.
  static let cases: [(type: String, case: String)] = [
    ("enum QueueError", "case hydrationIncomplete"), ("enum QueueError", "case copyExpired(reason: String)"),
    ("enum QueueError", "case notFound(id: String)"), ("enum Change", "case refreshed(Refresh)"),
    ("enum Change", "case forgotten"), ("enum LiveQuery", "case queue"),
    ("enum Verdict", "case accepted"), ("enum Verdict", "case merged(fields: [String])"),
    ("enum Verdict", "case conflicted(siblingId: String, fields: [String])"),
    ("enum Verdict", "case refused(Refusal)"),
    ("enum Verdict", "case blocked(reason: BlockedReason, refusal: Refusal? = nil)"), ("enum Verdict", "case dead"),
    ("enum BlockedReason", "case credentialRefused"), ("enum BlockedReason", "case keySpent"),
    ("enum BlockedReason", "case ancestorUnavailable"), ("enum BlockedReason", "case conflictUnresolved"),
    ("enum BlockedReason", "case failingAlone"), ("enum BlockedReason", "case instanceChanged"),
  ]

  /// Every `.swift` file of `Sources/MarfaQueue`, its lines trimmed.
  static func sources() throws -> [(path: String, lines: [String])] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/MarfaQueue")
    let found = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
    return try found.filter { $0.hasSuffix(".swift") }.sorted().map { name in
      let text = try String(contentsOfFile: root.appendingPathComponent(name).path, encoding: .utf8)
      return (name, text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
    }
  }

  @Test("Every type, member and case the seed page names is still declared public, as it was")
  func theSeedPagesAPIIsPublicAndUnchanged() throws {
    let files = try Self.sources()
    #expect(files.count > 100, "Sources/MarfaQueue not found beside the tests")
    let lines = files.flatMap(\.lines)
    for type in Self.types {
      #expect(lines.contains { $0.hasPrefix("public \(type):") || $0.hasPrefix("public \(type) ") }, "\(type)")
    }
    for member in Self.members {
      #expect(lines.contains { $0.hasPrefix("public \(member)") }, "\(member)")
    }
    for (type, name) in Self.cases {
      let holders = files.filter { file in file.lines.contains { $0.hasPrefix("public \(type):") } }
      #expect(holders.contains { file in file.lines.contains { $0.hasPrefix(name) } }, "\(type): \(name)")
    }
  }
}
