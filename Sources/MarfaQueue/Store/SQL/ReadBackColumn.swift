/// The `read_backs` table's columns: rows a drain still has to read back from the instance.
enum ReadBackColumn: Int, SQLColumn {
  case id, kind, rowId
  static let table = "read_backs"
}
