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
    let last = self[.answered].total - 1
    guard last >= 0 else { return [] }
    self[.answered].selected = last
    keepSelectionVisible(.answered)
    return reloadIfNeeded(.answered).map { [$0] } ?? []
  }

  /// While tailing, a page of Answered moves its selection to the newest write (the last, in
  /// send order), and the pane scrolls to show it; a followed write wins over the tail.
  mutating func tailNewest(_ pane: QueuePane) {
    guard tailing, pane == .answered, following == nil else { return }
    let last = self[pane].total - 1
    guard last >= 0, self[pane].selected != last else { return }
    self[pane].selected = last
  }

  /// Moving Answered's selection by hand (off its newest write) stops the tail, as `F` stops following.
  mutating func stopTailingIfMoved() {
    guard tailing, focus == .answered, self[.answered].selected != self[.answered].total - 1 else { return }
    tailing = false
    message = StatusMessage("stopped tailing Answered (moved by hand; T tails again)")
  }
}
