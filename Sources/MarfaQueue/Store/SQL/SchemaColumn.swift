/// The columns of SQLite's own schema listings (`sqlite_master`, `pragma_table_info`) read here.
enum SchemaColumn: Int, SQLColumn {
  case name, type
  static let table = "sqlite_master"
}
