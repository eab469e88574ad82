/// The queue's fixed numbers, written once: the store's checks, the drain and the screens read them here.
public enum QueueLimits {
  /// Counted refusals that make a write dead (the contract's ceiling of five).
  public static let ceiling = 5
  /// Drains in a row with an environmental failure that set a write aside and then block it
  /// `failingAlone` (DESIGN 3.2), fixed like the ceiling.
  public static let failingAloneStreak = 3
}
