import MarfaQueue

extension UIState {
  /// How long the selection must rest on one write before a held detail shows it.
  public static let detailRest: Duration = .seconds(1)

  /// Whether a drain may still be moving the selection: a live writer's pass runs, or no writer
  /// has said what it does (none published a record: a bare store, an earlier build, the Marfa
  /// core). A held detail rests longer while the drain moves at a steady pace (``DetailRestTimer``).
  public var drainMayMove: Bool {
    guard let writer, !writer.unpublished else { return true }
    guard writer.state == .live, let drain = writer.drain else { return false }
    return drain.endedAt == nil
  }

  /// The write the detail shows: the held one, else the selection; with summary rows, its body,
  /// answer and idempotency key from ``detailWhole`` once that is read.
  public var detailWrite: QueuedWrite? {
    guard let w = detailHold?.write ?? selectedWrite else { return nil }
    guard summaryPages, let whole = detailWhole, whole.id == w.id else { return w }
    var merged = w
    merged.body = whole.body
    merged.answer = whole.answer
    merged.bodyBytes = whole.bodyBytes
    merged.answerBytes = whole.answerBytes
    merged.idempotencyKey = whole.idempotencyKey
    return merged
  }

  /// Whether the detail's body and answer are still being read (summary rows, ``detailWhole``
  /// not yet read for the write shown).
  public var detailWholePending: Bool {
    guard summaryPages, let id = (detailHold?.write ?? selectedWrite)?.id else { return false }
    return detailWhole?.id != id
  }

  /// After a page of the focused pane was applied: when a read after a change put another write
  /// under the selection (not a key, not `F` following a write), the detail holds the write it
  /// showed; when the selection comes back to the held write, the hold ends.
  ///
  /// - Parameters:
  ///   - before: the write selected before the page, when its row was drawn.
  ///   - afterChange: whether the page was read because the queue changed.
  mutating func holdDetail(before: QueuedWrite?, afterChange: Bool) {
    let now = selectedWrite?.id
    if let held = detailHold {
      if now == held.write.id {
        endDetailHold()
      } else if afterChange, now != before?.id {
        detailHold?.moves += 1
      }
      return
    }
    guard afterChange, following == nil, let before, now != before.id else { return }
    detailHold = DetailHold(write: before)
  }

  /// Keeps the held write as last read, from any page that holds it.
  mutating func refreshHeld(from page: QueuePage) {
    guard let id = detailHold?.write.id, let w = page.writes.first(where: { $0.id == id }) else { return }
    detailHold?.write = w
  }

  /// The detail shows the selection again, from its first line.
  mutating func endDetailHold() {
    guard detailHold != nil else { return }
    detailHold = nil
    detailScroll = 0
  }

  /// The selection has rested since the hold's `moves`-th move: the detail shows it (unless the
  /// detail has the focus: a person scrolling it keeps it until they leave it).
  mutating func detailRested(moves: Int) {
    guard let held = detailHold, held.moves == moves, !detailFocused else { return }
    endDetailHold()
  }

  /// A key while the detail is held: one that moves the selection or acts on it shows the
  /// selection first (a repaint, the help, pause, drain and the like leave the hold to its rest).
  /// A key that acts on the selected write does nothing else (the person saw another write in the
  /// detail): it says which write is selected now, and the next press acts; so does `enter` in a
  /// focused detail, which would jump from the selected write. Scrolling a focused detail keeps
  /// the hold.
  ///
  /// - Returns: true when the key was spent showing the selection.
  mutating func keyEndsDetailHold(_ action: Action) -> Bool {
    guard let held = detailHold, !action.leavesSelection else { return false }
    if detailFocused && action.scrollsDetail { return false }
    endDetailHold()
    // In a focused detail `enter` is the jump from the selected write.
    let jumpInDetail = detailFocused && action == .focusDetail
    guard jumpInDetail || action.actsOnSelection(marks: !marks.isEmpty) else { return false }
    let selected = selectedWrite.map { "to \(ShortID.of($0.id))" } ?? "on"
    let key = keyMap.hint(action) ?? action.hint
    message = StatusMessage(
      "the selection moved \(selected) while the detail showed \(ShortID.of(held.write.id)):"
        + " press \(key) again to \(jumpInDetail ? Action.jump.hint : action.hint)", isError: true)
    return true
  }
}
