/// The queue's fixed numbers, written once: the store's checks, the drain and the screens read them here.
public enum QueueLimits {
  /// Counted refusals that make a write dead (the contract's ceiling of five).
  public static let ceiling = 5
  /// Drains in a row with an environmental failure that set a write aside and then block it
  /// `failingAlone` (docs/rules.md), fixed like the ceiling.
  package static let failingAloneStreak = 3
  /// How much of an answer a screen reads (bytes, through SQLite's incremental I/O): a page of
  /// writes never holds more of one, however large a hostile store made it; the detail says how
  /// much more there is.
  public static let shownAnswer = 65_536
  /// The largest payload a screen reads and lays out as the body (bytes); a larger one is left
  /// out and its size said.
  package static let shownPayload = 1 << 20
}
