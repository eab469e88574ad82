/// The `change_log` table's columns (``StoreSchema/changeLog``).
enum ChangeLogColumn: Int, SQLColumn {
  case n, id
  static let table = "change_log"
}
