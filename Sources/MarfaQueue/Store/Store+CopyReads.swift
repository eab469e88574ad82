/// The copy's rows as a local read shows them: the instance's row with the unanswered writes
/// laid over it.
extension SQLite {
  /// Which rows a read of the copy lists.
  enum CopyRowFilter {
    /// One row, by id.
    case id(String)
    /// Every item row, or those of one type.
    case items(type: String?)
    /// The edges whose source, or whose target, is this item.
    case edges(source: String)
    case edgesTo(target: String)
  }

  /// The rows the filter names, each its stored body with its version and state as the copy
  /// holds them, in id order.
  func copyRows(_ kind: RowKind, _ filter: CopyRowFilter) throws -> [JSONValue] {
    var sql = "SELECT version, state, body FROM rows WHERE kind = ?"
    var values: [SQLValue] = [.text(kind.rawValue)]
    switch filter {
    case .id(let id):
      sql += " AND id = ?"
      values.append(.text(id))
    case .items(let type?):
      sql += " AND json_extract(body, '$.type') = ?"
      values.append(.text(type))
    case .items(nil):
      break
    case .edges(let source):
      sql += " AND json_extract(body, '$.source_id') = ?"
      values.append(.text(source))
    case .edgesTo(let target):
      sql += " AND json_extract(body, '$.target_id') = ?"
      values.append(.text(target))
    }
    sql += " ORDER BY id"
    return try rows(sql, values, reading: CopyReadColumn.self) { r in
      var body = r.text(.body).flatMap(JSONValue.parse) ?? .object([])
      if let version = r.int(.version) { body = body.setting("version", .int(version)) }
      if let state = r.text(.state) {
        body = body.setting("state", .string(state))
      } else if kind == .item, body["state"] == nil {
        body = body.setting("state", .string("active"))
      }
      return body
    }
  }

  /// The row a natural key names: the copy's item under that source and source id, else the row
  /// of a create of this device's still outstanding under it; nil when neither is there.
  func rowNamed(source: String, sourceId: String) throws -> String? {
    let held = try ids(
      """
      SELECT id FROM rows WHERE kind = 'item' AND json_extract(body, '$.source') = ?
        AND json_extract(body, '$.source_id') = ? ORDER BY id LIMIT 1
      """, [.text(source), .text(sourceId)])
    if let id = held.first { return id }
    return try ids(
      """
      SELECT item_id FROM queue WHERE kind = \(WriteKind.createItem.sql) AND \(SQLite.outstanding())
        AND json_extract(payload, '$.source') = ? AND json_extract(payload, '$.source_id') = ?
      ORDER BY seq DESC LIMIT 1
      """, [.text(source), .text(sourceId)]
    ).first
  }

  /// The tags a read shows on an item: those its tag and metadata writes give it, in the order
  /// queued, each write the instance took or has not refused (a refused one changed nothing).
  func tagsShown(item: String) throws -> [String] {
    let kinds = WriteKind.sqlList([.addTag, .removeTag, .replaceMetadata, .mergeMetadata])
    var tags: [String] = []
    try query(
      """
      SELECT kind, tag, payload FROM queue WHERE item_id = ? AND kind IN (\(kinds))
        AND (verdict IS NULL OR verdict NOT IN ('refused', 'dead')) ORDER BY seq
      """, [.text(item)]
    ) { r in
      let named = r.text(2).flatMap(JSONValue.parse)?["tags"]?.arrayValue?.compactMap(\.stringValue) ?? []
      switch WriteKind(rawValue: r.text(0) ?? "") {
      case .addTag?, .mergeMetadata?:
        for tag in (r.text(1).map { [$0] } ?? named) where !tags.contains(tag) { tags.append(tag) }
      case .removeTag?: tags.removeAll { $0 == r.text(1) }
      case .replaceMetadata?: tags = named
      default: break
      }
    }
    return tags
  }
}
