import CSQLite

/// One prepared statement, with what was resolved on it once: where each column set it is read
/// through sits in its result (``SQLColumn``).
final class SQLStatement {
  let handle: OpaquePointer
  private var resolved: [ObjectIdentifier: ContiguousArray<Int32>] = [:]

  init(handle: OpaquePointer) { self.handle = handle }

  /// The position of each of `C`'s columns in this statement's result, indexed by the column's
  /// raw value; -1 for a column the statement does not select. Resolved once per statement.
  func positions<C: SQLColumn>(of _: C.Type) -> ContiguousArray<Int32> {
    if let known = resolved[ObjectIdentifier(C.self)] { return known }
    var byName: [String: Int32] = [:]
    for i in 0..<sqlite3_column_count(handle) {
      if let name = sqlite3_column_name(handle, i) { byName[String(cString: name)] = i }
    }
    var positions = ContiguousArray<Int32>(repeating: -1, count: C.allCases.count)
    for column in C.allCases {
      precondition(column.rawValue < positions.count, "\(C.self): raw values must be 0, 1, 2, …")
      positions[column.rawValue] = byName[column.name] ?? -1
    }
    resolved[ObjectIdentifier(C.self)] = positions
    return positions
  }
}
