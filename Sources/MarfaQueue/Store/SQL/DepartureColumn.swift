/// The `departures` table's columns (``StoreSchema/departures``).
enum DepartureColumn: Int, SQLColumn {
  case n, id, event
  static let table = "departures"
}
