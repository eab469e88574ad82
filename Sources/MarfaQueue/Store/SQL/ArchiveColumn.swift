/// The `archive` table's columns (``StoreSchema/archive``): a departed write kept whole.
enum ArchiveColumn: Int, SQLColumn {
  case n, id, event, departedAtMs, departedBy, seq, lastSeq, itemId, edgeId, blob, deps, marked, bytes, row
  static let table = "archive"
}
