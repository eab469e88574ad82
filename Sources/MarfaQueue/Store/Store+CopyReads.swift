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
}
