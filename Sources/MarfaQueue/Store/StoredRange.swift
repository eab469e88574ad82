/// What each number read from the store may be, written once; a value outside is a damaged store
/// (``StoreDamage``). Every bound leaves room for the arithmetic done on the value (a count plus
/// a page, a streak plus one) to stay far from `Int.max`.
package enum StoredRange {
  /// A count of writes (a pane's kept count, a drain's counts): SQLite's largest file (2^48
  /// bytes) holds fewer than 2^40 writes of 256 bytes.
  package static let count = 0...(1 << 40)
  /// Counted refusals (the schema's own check).
  package static let refusals = 0...QueueLimits.ceiling
  /// Drains in a row with an environmental failure.
  package static let streak = 0...(1 << 40)
  /// An HTTP status kept as a write's last failure.
  package static let httpStatus = 100...599
  /// A row's version: the largest integer every JSON reader keeps exact (2^53).
  package static let version = 0...(1 << 53)
  /// A time kept as milliseconds since 1970: up to the end of the year 9999, which the clock
  /// text can write.
  package static let epochMilliseconds = 0...253_402_300_799_999
  /// A process id (Linux's `pid_max` is at most 2^22).
  package static let pid = 1...Int(Int32.max)
  /// The heartbeat a writer's record promises, in seconds (a day at most).
  package static let heartbeatSeconds = 1...86_400
  /// How long a request took, in milliseconds (a day at most: no request outlives its deadline).
  package static let milliseconds = 0...86_400_000
  /// Seconds to wait before the next try, as the last drain kept it.
  package static let retryAfterSeconds = 0...(1 << 31)

  /// `0 to 5`, as a damage record says it.
  static func words(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound) to \(range.upperBound)" }

  /// The value if it lies in `range`; otherwise nil, with what it says of the store.
  static func check(_ value: Int, _ range: ClosedRange<Int>, place: @autoclosure () -> String, instead: String)
    -> (Int?, StoreDamage?)
  {
    if range.contains(value) { return (value, nil) }
    return (nil, StoreDamage(place: place(), value: String(value), range: words(range), instead: instead))
  }

  /// A number of a row as it may be read: itself when it lies in `range`; else, with the first
  /// such value kept in `damage`, the nearest value in `range` (`clamping`) or nil.
  static func read(
    _ value: Int?, _ range: ClosedRange<Int>, clamping: Bool, place: @autoclosure () -> String,
    damage: inout StoreDamage?
  ) -> Int? {
    guard let value else { return nil }
    if range.contains(value) { return value }
    let near = clamp(value, range)
    if damage == nil {
      damage = StoreDamage(
        place: place(), value: String(value), range: words(range), instead: clamping ? "read as \(near)" : "left out")
    }
    return clamping ? near : nil
  }

  /// `value` moved into `range` (the nearest value it holds).
  static func clamp(_ value: Int, _ range: ClosedRange<Int>) -> Int {
    min(max(value, range.lowerBound), range.upperBound)
  }
}
