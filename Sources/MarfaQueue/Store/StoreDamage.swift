/// A number in the store outside what it can hold (a count below zero, a refusal count past the
/// ceiling, a time past the year 9999): the file was damaged or written by something else.
///
/// The value is never used as it is: it is read as the nearest one that can be shown (or
/// counted again, or left out), and the first one a connection meets is said once: on the
/// screen's status line, as a warning of the command (``StoredRange``, docs/architecture.md).
public struct StoreDamage: Sendable, Codable, Hashable {
  /// Where the value sits: `pane_counts.n (Waiting)`, `queue.refusals of …1234abcd`.
  public var place: String
  /// The value as stored.
  public var value: String
  /// What it may be: `0 to 5`.
  public var range: String
  /// What was done instead: `read as 5`, `counted again`, `left out`.
  public var instead: String

  /// Creates a damage record.
  public init(place: String, value: String, range: String, instead: String) {
    self.place = place
    self.value = value
    self.range = range
    self.instead = instead
  }

  /// One sentence for a person.
  public var message: String {
    "the store is damaged: \(place) holds \(value), outside \(range); \(instead)"
  }
}
