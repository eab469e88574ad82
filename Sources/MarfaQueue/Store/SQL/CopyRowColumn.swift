/// The `rows` table's columns: the copy's items and edges as the instance last gave them.
enum CopyRowColumn: Int, SQLColumn {
  case kind, id, version, state, body
  static let table = "rows"
}
