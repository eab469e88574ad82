import Synchronization

/// How many times slower than the wall clock the queue paces its time-driven work: a group's
/// commit (``SQLite/groupSpan``) and a drain's progress record (``DrainPass/progressInterval``).
///
/// Always 1, but in an instruction profile: under callgrind a drain runs ~30 times slower, so at
/// the same intervals a group commits a handful of writes instead of the ~150 it commits at full
/// speed, and the count weighs the commits by that. The profile stretches the intervals alike
/// before it opens a store (docs/performance.md, "The CPU row, counted").
package enum TimeScale {
  /// The factor; 1 unless a profile sets it.
  package static let factor = Atomic<Int>(1)

  /// The factor now.
  static var current: Int { factor.load(ordering: .relaxed) }
}
