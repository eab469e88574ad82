/// A value the store keeps as its name (a write's kind, a verdict's name), spelled in the store's SQL.
protocol SQLNamed: RawRepresentable where RawValue == String {}

extension SQLNamed {
  /// The name as an SQL string literal: `'blocked'`.
  var sql: String { "'\(rawValue)'" }

  /// Names as an SQL list for `IN (…)`: `'blocked','dead'`.
  static func sqlList(_ values: [Self]) -> String { values.map(\.sql).joined(separator: ",") }

  /// A test that `column` holds one of `values`, each named (`(verdict = 'a' OR verdict = 'b')`):
  /// for a statement that runs per write, where SQLite would build an `IN` list of more than two
  /// constants into a temporary index every time it runs.
  static func sqlOneOf(_ column: String, _ values: [Self]) -> String {
    "(" + values.map { "\(column) = \($0.sql)" }.joined(separator: " OR ") + ")"
  }
}

extension WriteKind: SQLNamed {}
extension VerdictName: SQLNamed {}
