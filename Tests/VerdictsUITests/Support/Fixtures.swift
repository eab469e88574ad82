import MarfaQueue

@testable import VerdictsUI

/// Fixed writes covering every verdict and blocked reason, with a fixed clock.
enum Fixtures {
  static let multiByteFailure = "502 Bad Gateway — 版本冲突, réessayez plus tard 🙂"
  static let escapeFailure =
    "upstream \u{1B}[31mRED\u{1B}[0m \u{202E}txet desrever\u{202C} bell\u{07} del\u{7F} c1\u{9B}2J"

  static func write(
    _ id: String, _ kind: WriteKind = .updateItem, item: String? = "item-1", verdict: Verdict? = nil,
    waiting: Bool = false, refusals: Int = 0, failure: LastFailure? = nil, streak: Int = 0,
    dependsOn: [String] = [], follows: String? = nil, answer: String? = nil, sent: Bool = false,
    body: JSONValue = .object([("version", .number(3)), ("properties", .object([("title", .string("Groceries"))]))])
  ) -> QueuedWrite {
    QueuedWrite(
      id: id, kind: kind, itemId: item, baseVersion: kind == .updateItem ? 3 : nil,
      idempotencyKey: "9f3c2a71-5b8e-4d2c-a1f0-\(String(id.hashValueStable, radix: 16))",
      dependsOn: dependsOn, follows: follows, body: body, answer: answer, verdict: verdict, waiting: waiting,
      refusals: refusals, lastFailure: failure, environmentalStreak: streak, instanceId: "inst-7c1e",
      sent: sent || verdict != nil, queuedAt: "2026-11-29T10:00:00.000Z",
      answeredAt: verdict == nil ? nil : "2026-11-29T10:00:05.250Z")
  }

  static let refusal = Refusal(
    reason: "validation_failed", code: "validation_failed", message: "properties.title is too long",
    fields: [
      FieldRefusal(field: "properties.title", message: "at most 200 characters"), FieldRefusal(field: "properties.due"),
    ])

  static let waiting: [QueuedWrite] = [
    write("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", .createItem, item: "note-1", sent: false),
    write("w-held", .addTag, item: "note-1", waiting: true, follows: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"),
    write(
      "w-undeliv", .updateItem, item: "note-2", failure: LastFailure(status: 503, text: "Service Unavailable"),
      streak: 1, sent: true),
    write("w-dep", .createEdge, item: "note-1", waiting: true, dependsOn: ["w-create2"]),
  ]

  static let answered: [QueuedWrite] = [
    write("w-accept", .createItem, item: "note-3", verdict: .accepted, answer: #"{"id":"note-3","version":1}"#),
    write("w-merged", verdict: .merged(fields: ["title", "due"])),
    write("w-confl", verdict: .conflicted(siblingId: "note-1-copy", fields: ["body"])),
    write("w-refused", verdict: .refused(refusal), refusals: 1, answer: #"{"error":{"code":"validation_failed"}}"#),
    write(
      "w-trashed", .deleteItem, item: "note-9",
      verdict: .refused(
        Refusal(reason: "trashed", code: "item_not_found", message: "the item is in the bin", trashed: true))),
  ]

  static func blocked(_ reason: BlockedReason, failure: LastFailure? = nil, streak: Int = 0) -> QueuedWrite {
    var refusal: Refusal?
    switch reason {
    case .credentialRefused:
      refusal = Refusal(reason: "credential_refused", code: "unauthorized", message: "the key was refused")
    case .keySpent:
      refusal = Refusal(
        reason: "idempotency_key_reused", code: "idempotency_key_reused", message: "another body under this key")
    case .ancestorUnavailable:
      refusal = Refusal(
        reason: "ancestor_unavailable", code: "forbidden", message: "the key cannot read version 3",
        grant: MissingGrant(kind: .type, name: "note", level: .read))
    case .conflictUnresolved:
      refusal = Refusal(reason: "version_conflict", code: "version_conflict", message: "version 3 was overtaken by 5")
    case .failingAlone, .instanceChanged: refusal = nil
    }
    let ids: [BlockedReason: String] = [
      .credentialRefused: "b-cred", .keySpent: "b-spent", .ancestorUnavailable: "b-ancestor",
      .conflictUnresolved: "b-conflict", .failingAlone: "b-alone", .instanceChanged: "b-instance",
    ]
    var w = write(ids[reason]!, verdict: .blocked(reason: reason, refusal: refusal), failure: failure, streak: streak)
    if reason == .instanceChanged { w.instanceId = "inst-0a9f" }
    return w
  }

  static let blockedWrites: [QueuedWrite] = BlockedReason.allCases.map { reason in
    reason == .failingAlone
      ? blocked(reason, failure: LastFailure(status: 502, text: multiByteFailure), streak: 3) : blocked(reason)
  }

  static let escapeLaden = write(
    "b-escapes", verdict: .blocked(reason: .failingAlone, refusal: nil),
    failure: LastFailure(status: 500, text: escapeFailure), streak: 4,
    answer: "<html>\u{1B}]0;pwned\u{07}<body>\u{1B}[2J gateway</body></html>")

  static let dead: [QueuedWrite] = [
    write("d-1", .mergeMetadata, item: "note-5", verdict: .dead, refusals: 5),
    write("d-2", .writeExtension, item: "note-6", verdict: .dead, refusals: 5),
  ]

  static func pages() -> [QueuePage] {
    [
      QueuePage(pane: .waiting, offset: 0, writes: waiting, total: waiting.count),
      QueuePage(pane: .answered, offset: 0, writes: answered, total: answered.count),
      QueuePage(pane: .blocked, offset: 0, writes: blockedWrites + [escapeLaden], total: blockedWrites.count + 1),
      QueuePage(pane: .dead, offset: 0, writes: dead, total: dead.count),
    ]
  }

  static let status = Status(
    store: "/home/ana/.local/state/verdicts/queue.store", handle: .writer, fill: .complete,
    origin: "http://127.0.0.1:8421",
    instanceId: "inst-7c1e", counts: QueueCounts(waiting: 4, answered: 5, blocked: 7, dead: 2),
    lastDrain: DrainReport(
      answered: 6, held: 2, undelivered: 1, unavailable: "502 from a gateway", retryAfterSeconds: 30),
    lastDrainAt: "2026-11-29T10:00:06.000Z")

  /// A state of the given size with every pane loaded.
  static func state(width: Int = 80, height: Int = 24, focus: QueuePane = .waiting, select: Int = 0) -> UIState {
    var s = UIState(width: width, height: height)
    s.instanceURL = "http://127.0.0.1:8421"
    _ = s.handle(.status(status))
    _ = s.handle(.reachable(true))
    for page in pages() { _ = s.handle(.loaded(page)) }
    s.focus = focus
    for _ in 0..<select { _ = s.handle(.key(.down)) }
    return s
  }
}

extension String {
  /// A hash that is the same on every run (Swift's hashValue is seeded).
  var hashValueStable: UInt32 {
    var h: UInt32 = 2_166_136_261
    for b in utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
    return h
  }
}
