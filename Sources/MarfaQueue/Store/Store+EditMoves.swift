/// Edits of one row moved onto each other's answers.
///
/// Every edit of a row is queued on the version the copy held (or the one named); an edit behind
/// another edit of the same row was made against the copy with the one ahead laid over it. Sent
/// on the version both were queued on, the instance would take the device's own first edit for
/// another device's, and merge or conflict the second against it. So when an edit (or the row's
/// create) is answered `accepted` or `merged`, each unsent edit and delete of that row behind it
/// moves onto the version the answer gave, where that answer still holds what the edit read for
/// every property it changes. Where it does not (another device changed one of them meanwhile),
/// the edit keeps its version and the instance merges or conflicts it, as it should. Behind a
/// `conflicted`, refused or blocked answer nothing moves: the row reached that version without
/// the edit ahead. A moved edit no longer carries the properties it sends at the value it read
/// (on the answer's version they would assert that value over another device's); a whole
/// (`properties_mode: replace`) edit carries everything, as it must.
extension SQLite {
  /// Whether the store keeps what edits read: a store an earlier build made and that could not be
  /// upgraded (read-only, a full disk) does not. Asked once a connection, once seen.
  func keepsEditReads() -> Bool {
    if editReadsSeen { return true }
    editReadsSeen = (try? query("SELECT id FROM edit_reads LIMIT 0")) != nil
    return editReadsSeen
  }

  /// Keeps the properties an edit was made against (``StoreSchema/editReads``).
  func keepEditRead(_ id: String, properties: JSONValue) throws {
    guard keepsEditReads() else { return }
    try query("INSERT OR REPLACE INTO edit_reads (id, properties) VALUES (?, ?)", [.text(id), .text(properties.text)])
  }

  /// Moves the unsent edits and deletes of the answered write's row queued behind it onto the
  /// row the answer gave (see the type's summary); returns the ids it moved.
  @discardableResult
  func moveOntoAnswer(_ w: QueuedWrite, row: JSONValue, replayed: Bool = false) throws -> [String] {
    guard let version = row["version"]?.intValue else { return [] }
    let edge = w.kind.rowKind == .edge
    guard let rowId = edge ? w.edgeId : w.itemId, let seq = try seq(of: w.id) else { return [] }
    let answered = row["properties"] ?? .object([])
    var behind: [(id: String, kind: String, payload: String, base: Int?, read: String?)] = []
    let sql = Self.behindAnswerSQL[edge ? 1 : 0][keepsEditReads() ? 1 : 0]
    try query(
      sql, [.text(rowId), .int(seq)]
    ) { r in
      if let id = r.text(0), let kind = r.text(1), let payload = r.text(2) {
        behind.append((id, kind, payload, r.int(3), r.text(4)))
      }
    }
    var moved: [String] = []
    for b in behind where b.base != version {
      // A create answered as a repeat (the instance took it long ago) answers with the row as it
      // stands, which may hold another device's changes: a delete made against the create's own
      // content confirms nothing there and stays on its placeholder, refused unsent by the drain.
      let isDelete = b.kind == WriteKind.deleteItem.rawValue || b.kind == WriteKind.deleteEdge.rawValue
      if replayed, w.kind == .createItem || w.kind == .createEdge {
        // An edit of the create's own content goes on the version the create made (1), where the
        // instance merges it over what was written since, never on the row as it stands.
        guard !isDelete, (b.base ?? 0) == 0, var payload = JSONValue.parse(b.payload) else { continue }
        payload = payload.setting("version", .int(1))
        try move(b.id, version: 1, payload: payload)
        moved.append(b.id)
        continue
      }
      let isEdit = b.kind == WriteKind.updateItem.rawValue || b.kind == WriteKind.updateEdge.rawValue
      guard var payload = JSONValue.parse(b.payload) else { continue }
      if isEdit {
        guard let readText = b.read, let read = JSONValue.parse(readText) else {
          // Queued before reads were kept: only an edit of a create's placeholder moves.
          guard b.base == 0 else { continue }
          payload = payload.setting("version", .int(version))
          try move(b.id, version: version, payload: payload)
          moved.append(b.id)
          continue
        }
        let carried = payload["properties"]?.objectValue ?? []
        let whole = payload["properties_mode"]?.stringValue == "replace"
        let changed = carried.filter { name, value in !Self.sameValue(value, read[name]) }
        let holds = changed.allSatisfy { name, _ in Self.sameValue(answered[name], read[name]) }
        guard holds else { continue }
        if !whole { payload = payload.setting("properties", .object(changed)) }
        payload = payload.setting("version", .int(version))
      } else if b.kind == WriteKind.deleteEdge.rawValue, payload["version"] != nil {
        payload = payload.setting("version", .int(version))
      }
      try move(b.id, version: version, payload: payload)
      moved.append(b.id)
    }
    return moved
  }

  /// The unsent, unanswered edits and deletes of a row behind a write, in send order, with what
  /// each read: by `[item 0 | edge 1][reads kept 0 | 1]`. Made once: they run for every answer
  /// that carries a row (a statement is found by its text's address).
  static let behindAnswerSQL: [[String]] = [false, true].map { edge in
    let kinds: [WriteKind] = edge ? [.updateEdge, .deleteEdge] : [.updateItem, .deleteItem]
    return ["NULL", "(SELECT properties FROM edit_reads r WHERE r.id = q.id)"].map { read in
      """
      SELECT id, kind, payload, base_version, \(read) FROM queue q
      WHERE \(edge ? "edge_id" : "item_id") = ? AND seq > ? AND sent = 0 AND verdict IS NULL
        AND kind IN (\(WriteKind.sqlList(kinds)))
      ORDER BY seq
      """
    }
  }

  /// Whether two property values are the same, an absent one read as null.
  static func sameValue(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
    (a ?? .null) == (b ?? .null)
  }

  /// Sets a write's base version and payload, its checksum following where it was intact.
  private func move(_ id: String, version: Int, payload: JSONValue) throws {
    let intact = try payloadDamage(of: id) == nil
    try query(
      "UPDATE queue SET base_version = ?, payload = ? WHERE id = ?", [.int(version), .text(payload.text), .text(id)])
    if intact { try takePayloadChecksum(of: id) }
  }
}
