import Digest

/// How far a fill has read the instance's item pages, and the cursors they gave (kept as
/// SHA-256 digests, so a hostile cursor costs 32 bytes however long it is).
struct FillProgress: Sendable {
  /// Pages read.
  var pages = 0
  /// Item rows taken from them.
  var rows = 0
  /// Bytes of page bodies read.
  var bytes = 0
  /// The cursor the last page request carried (nil for the first page).
  var lastCursor: String?
  private var seen: Set<[UInt8]> = []

  /// Records `cursor` as given; false when an earlier page gave it already.
  mutating func takeCursor(_ cursor: String) -> Bool {
    seen.insert(SHA256.digest(Array(cursor.utf8))).inserted
  }

  /// `after 3 pages and 600 rows (the last cursor 'b')`, for a person.
  var words: String {
    let cursor = lastCursor.map { ", the last cursor \(Outcome.quoted($0))" } ?? ", no cursor yet"
    return "after \(pages) page(s) and \(rows) row(s)\(cursor)"
  }
}
