/// The columns ``SQLite/copyRows(_:_:)`` reads.
enum CopyReadColumn: Int, SQLColumn {
  case version, state, body
  static let table = "rows"
}
