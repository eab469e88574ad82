/// The most a fill takes from an instance's item pages (docs/protocol.md, "Fill"): past any of
/// them the fill stops with ``QueueError/contractBroken(what:)``, saying how far it got.
struct FillLimits: Sendable {
  /// Pages of `GET /items` read (at 200 rows a page, room for 4,000,000 rows; at the instance's
  /// default of 50, for 1,000,000).
  var pages = 20_000
  /// Item rows taken.
  var rows = 1_000_000
  /// Bytes of page bodies read, all pages together (each page is also capped by ``ResponseLimits``).
  var bytes = 1 << 30
  /// The longest `next_cursor` taken, in bytes.
  var cursorBytes = 4096

  /// The limits every fill runs with.
  static let standard = FillLimits()
}
