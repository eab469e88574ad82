import CSQLite

/// One result row read by column name (``SQLColumn``); a column the statement did not select
/// reads as NULL.
struct ColumnRow<C: SQLColumn> {
  let stmt: OpaquePointer
  let positions: ContiguousArray<Int32>

  /// Whether the column holds NULL (or was not selected).
  func isNull(_ column: C) -> Bool {
    let i = positions[column.rawValue]
    return i < 0 || sqlite3_column_type(stmt, i) == SQLITE_NULL
  }

  /// The column as an integer, or nil.
  func int(_ column: C) -> Int? {
    isNull(column) ? nil : Int(sqlite3_column_int64(stmt, positions[column.rawValue]))
  }

  /// The column as a flag: 1 is true.
  func bool(_ column: C) -> Bool { int(column) == 1 }

  /// The column as text, or nil; read by byte count, not up to the first NUL.
  func text(_ column: C) -> String? {
    guard !isNull(column) else { return nil }
    let i = positions[column.rawValue]
    guard let p = sqlite3_column_text(stmt, i) else { return nil }
    let count = Int(sqlite3_column_bytes(stmt, i))
    return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
  }
}
