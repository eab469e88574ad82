import MarfaWire
import Testing

@testable import MarfaQueue

/// A write's line written straight out (``QueuedWrite/wireText(escaping:leading:)``, what
/// `watch --plain --json` prints for every write a drain answers) is the same, byte for byte, as
/// its ``QueuedWrite/wireJSON`` tree written after the same leading members: for every kind,
/// verdict, failure and hostile text, in every escaping.
@Suite struct WireTextTests {
  static let hostile = "a\u{1B}[2J \"q\" \\ b\u{85}c\u{9B}31m \u{202E}txt \u{AD} é 版 😀\n"

  /// Writes that between them set every member the line has, each way it can be.
  static var writes: [QueuedWrite] {
    let refusal = Refusal(
      reason: "validation", code: "E\u{1B}1", message: hostile,
      fields: [FieldRefusal(field: "title", message: hostile)],
      trashed: true, grant: MissingGrant(kind: .type, name: "note", level: .write))
    let verdicts: [Verdict?] =
      [
        nil, .accepted, .merged(fields: ["a", hostile]), .conflicted(siblingId: "sib", fields: []), .refused(refusal),
        .dead,
      ]
      + BlockedReason.allCases.map { Verdict.blocked(reason: $0, refusal: $0 == .credentialRefused ? refusal : nil) }
    var all: [QueuedWrite] = []
    for (i, kind) in WriteKind.allCases.enumerated() {
      for (j, verdict) in verdicts.enumerated() {
        let n = i * verdicts.count + j
        all.append(
          QueuedWrite(
            id: "w\(n)", kind: kind, itemId: n % 2 == 0 ? "item-\(n)" : nil, targetId: n % 3 == 0 ? hostile : nil,
            edgeId: n % 5 == 0 ? "e" : nil, namespace: n % 7 == 0 ? "ns" : nil, tag: n % 4 == 0 ? "tag" : nil,
            blob: n % 6 == 0 ? "blob" : nil, baseVersion: n % 3 == 1 ? n * 1_000_003 : nil, idempotencyKey: "key-\(n)",
            dependsOn: Array(["d1", "d2"].prefix(n % 3)), follows: n % 2 == 1 ? "f" : nil,
            body: n % 4 == 1 ? .object([("title", .string(hostile)), ("n", .int(-n))]) : .object([]),
            answer: n % 5 == 1 ? hostile : nil, verdict: verdict, waiting: verdict == nil && n % 2 == 0,
            refusals: n % 4, lastFailure: n % 3 == 2 ? LastFailure(status: n % 2 == 0 ? 503 : nil, text: hostile) : nil,
            environmentalStreak: n % 9, instanceId: n % 2 == 0 ? "inst" : nil, sent: n % 3 == 0,
            conflictedCopyId: n % 8 == 0 ? "copy" : nil, dependencyGone: n % 5 == 0, replayed: n % 2 == 0,
            queuedAt: "2026-12-07T00:00:00.000Z", answeredAt: verdict == nil ? nil : "2026-12-07T00:00:01.000Z",
            unknownKind: n % 11 == 0 ? (n % 2 == 0 ? "bogus_kind" : "") : nil))
      }
    }
    return all
  }

  @Test(arguments: [JSONEscaping.wire, .visible, .ascii])
  func aWritesLineWrittenStraightOutIsItsTreesTextByteForByte(escaping: JSONEscaping) {
    let writes = Self.writes
    #expect(writes.count > 100)
    for w in writes {
      let straight = w.wireText(escaping: escaping) { line in
        line.add("time", string: "2026-12-07T00:00:02.000Z")
        line.add("event", string: "answered")
      }
      guard case .object(let members) = w.wireJSON else {
        Issue.record("wireJSON is not an object")
        return
      }
      let tree = JSONValue.objectText(
        [("time", .string("2026-12-07T00:00:02.000Z")), ("event", .string("answered"))], members, escaping: escaping)
      #expect(straight == tree, "\(w.id)")
    }
  }

  @Test func aKindThisBuildDoesNotKnowAddsItsMemberAfterTheKind() {
    let w = QueuedWrite(id: "x", kind: .createItem, idempotencyKey: "k", queuedAt: "t", unknownKind: "bogus")
    guard case .object(let members) = w.wireJSON else {
      Issue.record("not an object")
      return
    }
    #expect(members.prefix(3).map(\.0) == ["id", "kind", "kind_unreadable"])
    #expect(w.wireJSON["kind"] == .string("bogus"))
    #expect(w.wireText(escaping: .wire).hasPrefix(#"{"id":"x","kind":"bogus","kind_unreadable":true,"item_id":null"#))
  }
}
