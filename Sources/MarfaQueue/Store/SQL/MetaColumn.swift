/// The `meta` table's columns: the store's settings and marks, by key.
enum MetaColumn: Int, SQLColumn {
  case key, value
  static let table = "meta"
}
