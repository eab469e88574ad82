import CSQLite
import Foundation

/// The four pane counts, as a screen shows them in its pane titles (`┌─ Waiting 1,204 ───`) or
/// as the store holds them. A frame is complete when its titles show the store's true counts.
struct PaneTitles: Equatable, CustomStringConvertible {
  /// Waiting, Answered, Blocked, Dead; nil where the screen shows no number (no title yet, or `…`).
  var counts: [Int?]

  static let names = ["Waiting", "Answered", "Blocked", "Dead"]

  /// The counts a screen shows: for each pane the first `<border> <Name> <number>` on it.
  init(screen: ScreenModel) {
    let lines = (0..<screen.height).map(screen.line)
    counts = Self.names.map { name in
      for line in lines { if let n = Self.count(after: name, in: line) { return n } }
      return nil
    }
  }

  init(counts: [Int?]) { self.counts = counts }

  /// The number after `Name ` in a title on `line` (the name following a border and a space),
  /// read with its grouping commas; nil when there is none or it is a placeholder (`…`).
  static func count(after name: String, in line: String) -> Int? {
    var rest = Substring(line)
    while let r = rest.range(of: name + " ") {
      let before = rest[rest.startIndex..<r.lowerBound]
      rest = rest[r.upperBound...]
      // A title follows a border: `─ Waiting`, `- Waiting`, `┌ Waiting`.
      guard before.hasSuffix("─ ") || before.hasSuffix("- ") || before.hasSuffix("┌ ") || before.hasSuffix("[ ")
      else { continue }
      var digits = ""
      for c in rest {
        if c.isASCII && c.isNumber {
          digits.append(c)
        } else if c == "," || c == "\u{202F}" || c == "." {
          continue
        } else {
          break
        }
      }
      return Int(digits)
    }
    return nil
  }

  /// Whether every pane shows exactly `truth`'s count.
  func shows(_ truth: PaneTitles) -> Bool { counts == truth.counts && !counts.contains(nil) }

  /// Whether some pane shows a number that is not `truth`'s (a placeholder `0`, say).
  func showsWrongNumber(_ truth: PaneTitles) -> Bool {
    zip(counts, truth.counts).contains { shown, real in shown != nil && shown != real }
  }

  var description: String {
    zip(Self.names, counts).map { "\($0) \($1.map { Stats.whole(Double($0)) } ?? "–")" }.joined(separator: " / ")
  }

  /// The store's true counts (`GROUP BY pane` over the queue, read-only).
  static func truth(store: String) throws -> PaneTitles {
    var db: OpaquePointer?
    _ = BenchSQLite.configured
    guard sqlite3_open_v2(store, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
      throw BenchFailure(message: "cannot open \(store) to count it")
    }
    defer { sqlite3_close_v2(db) }
    sqlite3_busy_timeout(db, 5_000)
    var stmt: OpaquePointer?
    guard sqlite3_prepare_v2(db, "SELECT pane, count(*) FROM queue GROUP BY pane", -1, &stmt, nil) == SQLITE_OK,
      let stmt
    else { throw BenchFailure(message: "counting \(store): \(String(cString: sqlite3_errmsg(db)))") }
    defer { sqlite3_finalize(stmt) }
    var counts: [Int?] = [0, 0, 0, 0]
    while sqlite3_step(stmt) == SQLITE_ROW {
      let pane = Int(sqlite3_column_int64(stmt, 0))
      if pane >= 0 && pane < 4 { counts[pane] = Int(sqlite3_column_int64(stmt, 1)) }
    }
    return PaneTitles(counts: counts)
  }
}
