import Digest

/// A checksum of each write's payload as queued, so bytes changed in the file (a damaged disk,
/// a stray program) are never sent: SQLite's integrity check does not see them.
extension SQLite {
  /// The checksum of a payload's text: SHA-256 of its UTF-8, in hex.
  static func payloadChecksum(_ payload: String) -> String { SHA256.hex(Array(payload.utf8)) }

  /// Whether the queue keeps payload checksums (a store made by an earlier build gains the
  /// column when its writer opens it; one that could not be upgraded is read without them).
  func keepsPayloadChecksums() -> Bool {
    if payloadChecksumsSeen { return true }
    payloadChecksumsSeen = (try? query("SELECT payload_sha FROM queue LIMIT 0")) != nil
    return payloadChecksumsSeen
  }

  /// Why the write's payload cannot be trusted (it no longer matches the checksum taken when
  /// it was queued), or nil: intact, or queued before checksums were kept.
  func payloadDamage(of id: String) throws -> String? {
    guard keepsPayloadChecksums() else { return nil }
    var damage: String?
    try query("SELECT payload, payload_sha FROM queue WHERE id = ?", [.text(id)], reading: QueueColumn.self) { r in
      damage = SQLite.payloadDamage(payload: r.text(.payload), checksum: r.text(.payloadSha))
    }
    return damage
  }

  /// Why a payload cannot be trusted against the checksum kept with it, or nil (intact, or no
  /// checksum kept).
  static func payloadDamage(payload: String?, checksum kept: String?) -> String? {
    guard let kept, payloadChecksum(payload ?? "") != kept else { return nil }
    return "the store was damaged: this write's payload no longer matches the checksum taken when it was queued, "
      + "so it was not sent (queue it again)"
  }

  /// What the drain's plan reads of a write before it goes, in one statement: whether it has a
  /// verdict, its base version, and why its payload cannot be trusted (nil: intact, or queued
  /// before checksums were kept). Nil when the write is gone.
  func plannedStanding(of id: String) throws -> (
    answered: Bool, baseVersion: Int?, itemId: String?, damage: String?
  )? {
    guard keepsPayloadChecksums() else {
      return try standing(of: id).map { ($0.answered, $0.baseVersion, $0.itemId, nil) }
    }
    var out: (Bool, Int?, String?, String?)?
    try query(
      "SELECT verdict, base_version, item_id, payload, payload_sha FROM queue WHERE id = ?", [.text(id)],
      reading: QueueColumn.self
    ) { r in
      let answered = r.text(.verdict) != nil
      // A write with a verdict is not sent: its payload is not checked.
      let damage = answered ? nil : SQLite.payloadDamage(payload: r.text(.payload), checksum: r.text(.payloadSha))
      out = (answered, r.int(.baseVersion), r.text(.itemId), damage)
    }
    return out
  }

  /// Takes the checksum of the write's payload as it is now.
  func takePayloadChecksum(of id: String) throws {
    guard keepsPayloadChecksums() else { return }
    let payloads = try rows("SELECT payload FROM queue WHERE id = ?", [.text(id)], reading: QueueColumn.self) {
      $0.text(.payload)
    }
    guard let payload = payloads.first ?? nil else { return }
    try query("UPDATE queue SET payload_sha = ? WHERE id = ?", [.text(SQLite.payloadChecksum(payload)), .text(id)])
  }
}
