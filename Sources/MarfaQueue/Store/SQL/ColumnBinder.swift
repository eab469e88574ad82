import CSQLite

/// Binds values to a prepared statement's parameters by column name (``SQLColumn``): each
/// column's parameter is resolved once, when the binder is made. Without a statement it only
/// records which columns it is given, in order (to write the statement from).
struct ColumnBinder<C: SQLColumn> {
  private let stmt: OpaquePointer?
  private let parameters: ContiguousArray<Int32>
  /// The columns given, in order, when recording.
  private(set) var recorded: [C] = []

  /// A binder that records the columns it is given.
  init() {
    stmt = nil
    parameters = []
  }

  /// A binder for `statement`, whose parameters are `columns` in order (`?1` is the first).
  init(_ statement: SQLStatement, columns: [C]) {
    stmt = statement.handle
    var parameters = ContiguousArray<Int32>(repeating: 0, count: C.allCases.count)
    for (i, column) in columns.enumerated() { parameters[column.rawValue] = Int32(i + 1) }
    self.parameters = parameters
  }

  /// Binds `value` to the column's parameter (or records the column).
  mutating func callAsFunction(_ column: C, _ value: SQLValue) {
    guard let stmt else { return recorded.append(column) }
    let index = parameters[column.rawValue]
    precondition(index > 0, "\(column.name) is not a parameter of this statement")
    SQLite.bind(value, at: index, in: stmt)
  }
}
