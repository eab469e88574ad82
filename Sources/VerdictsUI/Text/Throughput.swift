import FoundationEssentials
import MarfaQueue

/// Verdicts per second over the last minute, from the writer's published progress: what the
/// status line's sparkline draws.
///
/// The writer publishes how many writes its drain has come to a few times a second; each new count
/// adds what it grew by to the bucket of the moment it was read, so a watcher that joins late
/// starts from zero rather than from the whole drain.
struct Throughput: Hashable {
  /// Seconds one bucket (one cell of the sparkline) covers.
  static let bucketSeconds = 5.0
  /// Buckets kept: one minute.
  static let buckets = 12

  private var counts: [Int: Int] = [:]
  private var lastDrainStart: Date?
  private var lastSent = 0

  /// Notes the writer's drain progress as read at `at`.
  mutating func note(_ drain: WriterRecord.DrainProgress?, at: Date) {
    guard let drain else { return }
    let grew: Int
    if drain.startedAt == lastDrainStart {
      grew = max(0, drain.sent - lastSent)
    } else {
      // A drain first seen now: count nothing for what it did before this watcher saw it.
      grew = lastDrainStart == nil ? 0 : drain.sent
    }
    lastDrainStart = drain.startedAt
    lastSent = drain.sent
    guard grew > 0 else { return }
    let bucket = Self.bucket(at)
    counts[bucket, default: 0] += grew
    counts = counts.filter { $0.key > bucket - Self.buckets }
  }

  /// Writes per second in each bucket of the last minute, oldest first, the current one last.
  func rates(now: Date) -> [Double] {
    let newest = Self.bucket(now)
    return (newest - Self.buckets + 1...newest).map { Double(counts[$0] ?? 0) / Self.bucketSeconds }
  }

  /// Whether anything was counted in the last minute.
  func isEmpty(now: Date) -> Bool { rates(now: now).allSatisfy { $0 == 0 } }

  static func bucket(_ date: Date) -> Int { Int((date.timeIntervalSince1970 / bucketSeconds).rounded(.down)) }
}
