/// The kind of a row the copy holds (the `rows` table's `kind` column): an item or an edge, or
/// an item row a fill staged and has not taken yet.
enum RowKind: String, Sendable, Hashable {
  case item
  case edge
  /// An item row of a fill's page, staged until the fill takes them all at its end
  /// (``SQLite/stagedFillKind``); no write names one.
  case filling
  /// An edge row of a fill's page, staged beside the item rows (``SQLite/stagedFillEdgeKind``).
  case fillingEdge = "filling_edge"
}

extension WriteKind {
  /// The kind of row a write of this kind names.
  var rowKind: RowKind { isEdgeWrite ? .edge : .item }

  /// The id of the row a write of this kind names: its edge's for an edge write, else its item's.
  func rowId(item: String?, edge: String?) -> String? { isEdgeWrite ? edge : item }
}
