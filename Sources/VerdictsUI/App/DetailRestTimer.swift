/// The UI loop's timer for a held detail (``DetailHold``): when the selection has rested
/// ``UIState/detailRest`` since the hold's last move, `.detailRested` is due.
///
/// No hold, or a detail with the focus (it holds until the person leaves it), means no timer, so
/// an idle screen still waits with none.
struct DetailRestTimer: Sendable, Hashable {
  /// The held write the rest counts for (nil: no hold seen).
  private var heldID: String?
  /// The hold's move the rest counts from.
  private var moves = 0
  /// When that move was first seen.
  private var since = Duration.zero

  /// How long until the rest is over (zero: it is over now; nil: no timer), given the state's
  /// hold at `now`. A new move, or a new hold, starts the rest again.
  mutating func remaining(_ hold: DetailHold?, detailFocused: Bool, now: Duration) -> Duration? {
    guard let hold, !detailFocused else {
      heldID = nil
      return nil
    }
    if heldID != hold.write.id || moves != hold.moves {
      heldID = hold.write.id
      moves = hold.moves
      since = now
    }
    return max(.zero, UIState.detailRest - (now - since))
  }
}
