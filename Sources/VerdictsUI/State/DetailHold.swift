import MarfaQueue

/// The write the detail keeps showing after the drain moved the selection off it (docs/tui.md,
/// "The detail holds still while the drain moves").
///
/// A page read after a change can put another write under an unmoved selection (the write under it
/// was answered and left Waiting, Answered's tail took a new verdict). The detail then keeps the
/// write it showed, as last read, until the selection has rested on one write for
/// ``UIState/detailRest`` or a key or click comes; its title names the write now selected.
package struct DetailHold: Sendable, Hashable {
  /// The write the detail shows, as last read (from any pane's page that holds it).
  public var write: QueuedWrite
  /// How many times the selection moved under the hold; the rest counts from the last move.
  public var moves = 0

  /// Holds `write` in the detail.
  public init(write: QueuedWrite) { self.write = write }
}
