/// The value a write is ordered by under a ``PaneOrder``, as the store compares it (text by its
/// bytes, as SQLite's BINARY collation; every key is ASCII: times, reasons, verdicts, kinds).
enum OrderKey: Sendable, Hashable, Comparable {
  case int(Int)
  case text(String)

  /// The key bound into SQL.
  var sql: SQLValue {
    switch self {
    case .int(let n): return .int(n)
    case .text(let s): return .text(s)
    }
  }

  static func < (a: OrderKey, b: OrderKey) -> Bool {
    switch (a, b) {
    case (.int(let x), .int(let y)): return x < y
    case (.text(let x), .text(let y)): return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
    // SQLite puts numbers before text; one order never mixes them.
    case (.int, .text): return true
    case (.text, .int): return false
    }
  }
}
