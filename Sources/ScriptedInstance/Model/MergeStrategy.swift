/// How a type resolves a field that both a stale update and a later write changed.
public enum MergeStrategy: String, Sendable, Hashable, CaseIterable {
  /// The update arriving last wins the field.
  case lastWriterWins = "last_writer_wins"
  /// The item keeps its value and a conflicted copy, tagged `conflicted-copy`, takes the update's.
  case keepBothCopies = "keep_both_copies"
}
