import MarfaQueue

extension UIState {
  /// `T`: Answered follows its newest write, or stops.
  mutating func toggleTail() -> [UIEffect] {
    tailing.toggle()
    guard tailing else {
      message = StatusMessage("stopped tailing Answered")
      return []
    }
    following = nil
    message = StatusMessage("tailing Answered: the newest verdict stays on screen")
    let last = tailIndex
    guard last >= 0 else { return [] }
    self[.answered].selected = last
    keepSelectionVisible(.answered)
    return reloadIfNeeded(.answered).map { [$0] } ?? []
  }

  /// Where the tail keeps Answered's selection: the last row, or the first when Answered is
  /// ordered newest first (-1 when the pane is empty).
  var tailIndex: Int {
    let total = self[.answered].total
    return total == 0 ? -1 : self[.answered].order == .newestFirst ? 0 : total - 1
  }

  /// While tailing, a page of Answered moves its selection to the newest write (the last, in
  /// send order; the first, newest first), and the pane scrolls to show it; a followed write
  /// wins over the tail.
  mutating func tailNewest(_ pane: QueuePane) {
    guard tailing, pane == .answered, following == nil else { return }
    let last = tailIndex
    guard last >= 0, self[pane].selected != last else { return }
    self[pane].selected = last
  }

  /// Moving Answered's selection by hand (off its newest write) stops the tail, as `F` stops following.
  mutating func stopTailingIfMoved() {
    guard tailing, focus == .answered, self[.answered].selected != tailIndex else { return }
    tailing = false
    message = StatusMessage("stopped tailing Answered (moved by hand; T tails again)")
  }
}
