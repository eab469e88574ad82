/// How much of the departed writes the store keeps (``StoreSchema/archive``): pruned by size
/// first, then by an age the clock cannot fake, the oldest departure out first, in the writer's
/// own transaction that archives (docs/rules.md, "The archive and the clock").
struct ArchiveLimits: Sendable, Hashable {
  /// A departure whose witnessed age (``maxStepMilliseconds``) is past this is pruned.
  var maxAgeMilliseconds: Int
  /// The archive's rows (each write's row, body and answer as kept) are pruned, oldest first,
  /// to at most this many bytes; the newest departure is kept whatever its size.
  var maxBytes: Int
  /// The most one step between two departures, or between the newest and now, adds to the age
  /// of the departures before it: a clock that leapt (a year ahead) or a device left off for a
  /// month counts as this much; a clock that went back counts nothing.
  var maxStepMilliseconds: Int = 7 * 86_400_000
  /// A wall clock before this is wrong (a device that booted at 1970 before its time was set):
  /// nothing is pruned by age then.
  var clockFloorMilliseconds: Int = ArchiveLimits.clockFloor

  /// 2026-01-01T00:00:00Z, before this rule was written: no honest clock reads earlier.
  static let clockFloor = 1_767_225_600_000

  /// 30 days and 50 MB (docs/cli.md, "After the fact").
  static let standard = ArchiveLimits(maxAgeMilliseconds: 30 * 86_400_000, maxBytes: 50 * 1_048_576)
}
