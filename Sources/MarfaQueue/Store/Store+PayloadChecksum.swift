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
      guard let kept = r.text(.payloadSha) else { return }
      if SQLite.payloadChecksum(r.text(.payload) ?? "") != kept {
        damage =
          "the store was damaged: this write's payload no longer matches the checksum taken when it was queued, "
          + "so it was not sent (queue it again)"
      }
    }
    return damage
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
