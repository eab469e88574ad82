/// How much of the departed writes the store keeps (``StoreSchema/archive``): pruned by age and by
/// size, the oldest departure out first, in the writer's own transaction that archives.
struct ArchiveLimits: Sendable, Hashable {
  /// A departure older than this is pruned.
  var maxAgeMilliseconds: Int
  /// The archive's rows (each write's row, body and answer as kept) are pruned, oldest first,
  /// to at most this many bytes; the newest departure is kept whatever its size.
  var maxBytes: Int

  /// 30 days and 50 MB (docs/cli.md, "After the fact").
  static let standard = ArchiveLimits(maxAgeMilliseconds: 30 * 86_400_000, maxBytes: 50 * 1_048_576)
}
