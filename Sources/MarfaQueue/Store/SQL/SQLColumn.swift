/// The columns of one table, named once: each case is a column, its name the case's name in snake
/// case (`itemId` is `item_id`), its raw value its place in ``allCases`` (cases take the default
/// raw values 0, 1, 2, …).
///
/// Rows are read by name through ``ColumnRow``: a statement's names are resolved to positions once
/// per prepared statement (``SQLStatement``), so a row costs an array index per column.
protocol SQLColumn: CaseIterable, Hashable, RawRepresentable where RawValue == Int, AllCases == [Self] {
  /// The table the columns belong to (or, for a tally, the name of what it counts).
  static var table: String { get }
}

extension SQLColumn {
  /// The column's name in SQL.
  var name: String { SQLColumnName.names(of: Self.self)[rawValue] }

  /// The columns as an SQL list, in the order given.
  static func list(_ columns: [Self]) -> String { columns.map(\.name).joined(separator: ", ") }

  /// Every column as an SQL list.
  static var all: String { list(allCases) }
}
