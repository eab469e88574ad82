/// A count of the blocked writes by reason (`SELECT reason, count(*) AS n FROM queue …`).
enum ReasonCountColumn: Int, SQLColumn {
  case reason, n
  static let table = "queue"
}
