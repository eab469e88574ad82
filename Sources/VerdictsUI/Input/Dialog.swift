/// A modal box over the panes: a confirmation or the release-by-reason menu.
package enum Dialog: Sendable, Hashable {
  /// Asks `y` before an action that can't be undone.
  case confirm(PendingAction)
  /// The menu of blocked reasons; the index is the highlighted row.
  case releaseReason(selected: Int)
}
