/// The UI loop's timer for a held detail (``DetailHold``): when the selection has rested long
/// enough since the hold's last move, `.detailRested` is due.
///
/// Long enough is ``UIState/detailRest`` (1 s), or, while a drain moves the selection at a steady
/// pace, twice the gap between its last two moves (at most ``longestRest``): a drain that answers
/// a write every few seconds keeps the detail held, as a fast one does, rather than redrawing it
/// a second after every verdict (docs/tui.md, "The detail holds still while the drain moves").
/// When the writer says its drain has ended (or no writer lives), the rest is 1 s again at once:
/// the detail shows the write a stopped drain is stuck on within a second.
///
/// No hold, or a detail with the focus (it holds until the person leaves it), means no timer, so
/// an idle screen still waits with none.
struct DetailRestTimer: Sendable, Hashable {
  /// The longest rest: a drain that has not moved for this long is one a watcher calls stalled
  /// (`WriterRecord.stallSeconds`).
  static let longestRest: Duration = .seconds(30)

  /// The held write the rest counts for (nil: no hold seen).
  private var heldID: String?
  /// The hold's move the rest counts from.
  private var moves = 0
  /// When that move was first seen.
  private var since = Duration.zero
  /// The gap between that move and the one before it (across holds: each verdict that slides
  /// the selection is a move, whether it starts a hold or moves one); nil before a second move.
  private var gap: Duration?
  /// Whether a move was seen yet.
  private var moved = false

  /// How long until the rest is over (zero: it is over now; nil: no timer), given the state's
  /// hold at `now`. A new move, or a new hold, starts the rest again.
  ///
  /// - Parameter drainMoving: whether a drain may still be moving the selection (a live writer's
  ///   pass runs, or no writer's record says otherwise); false shortens the rest to 1 s.
  mutating func remaining(_ hold: DetailHold?, detailFocused: Bool, drainMoving: Bool = true, now: Duration)
    -> Duration?
  {
    guard let hold, !detailFocused else {
      heldID = nil
      return nil
    }
    if heldID != hold.write.id || moves != hold.moves {
      gap = moved ? now - since : nil
      moved = true
      heldID = hold.write.id
      moves = hold.moves
      since = now
    }
    return max(.zero, rest(drainMoving: drainMoving) - (now - since))
  }

  /// The rest the current move needs.
  private func rest(drainMoving: Bool) -> Duration {
    guard drainMoving, let gap, gap < Self.longestRest else { return UIState.detailRest }
    return min(Self.longestRest, max(UIState.detailRest, gap * 2))
  }
}
