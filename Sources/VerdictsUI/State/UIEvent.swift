import FoundationEssentials
import MarfaQueue

/// Everything the state machine reacts to: keys, sizes, and results posted back by queue calls.
package enum UIEvent: Sendable, Hashable {
  /// A key was pressed.
  case key(Key)
  /// A click or the wheel.
  case mouse(MouseEvent)
  /// The terminal's size is now this.
  case resize(width: Int, height: Int)
  /// Something touched the queue (a change on the copy's stream, or a writer's save).
  case changed
  /// A page of a pane was read.
  case loaded(QueuePage)
  /// The copy's status was read.
  case status(Status)
  /// The instance became reachable, or not.
  case reachable(Bool)
  /// A drain ran (by `d` or by the held updates).
  case drained(DrainReport)
  /// An action finished: what it did, or why it was refused.
  case outcome(String, isError: Bool)
  /// The last discard, forget or take took these writes out: `u` may put them back.
  case undoable(UndoOffer)
  /// Where a followed write is now: its pane and index, or nil when it left the queue.
  case located(id: String, pane: QueuePane?, index: Int?)
  /// Where the selected write sits in its pane's new order (nil: no longer in that pane).
  case reordered(id: String, pane: QueuePane, order: PaneOrder, index: Int?)
  /// The ids of every write in a pane (for `V`).
  case marked([String])
  /// A go-to's typed ID is a row's: how many writes name it, and the first (its pane and ID).
  case rowNamed(String, writes: Int, first: QueuePane, firstID: String)
  /// The first few writes the open confirmation acts on, read from the store (``UIEffect/examples(_:)``).
  case examples([String], for: PendingAction)
  /// How many blocked writes each reason holds (for the `R` menu).
  case reasonCounts([BlockedReason: Int])
  /// Where a write gone to (`:`, `J`, backspace) is: its full ID, pane and index; nil pane and
  /// index when the filter hides it.
  case wentTo(id: String, pane: QueuePane?, index: Int?)
  /// The writer's record as last read (it came, went, or died), and when it was read.
  case writer(WriterRecord?, at: Date)
  /// The store file was removed or replaced under the screen (or is back as it was), at this time.
  case storeFile(StoreFileState, at: Date)
  /// A minute passed: relative times (`3 min ago`) are drawn again.
  case tick(Date)
  /// The selection has rested ``UIState/detailRest`` since the held detail's `moves`-th move.
  case detailRested(moves: Int)
  /// The drains the store keeps, newest first, for the history view.
  case history([DrainRecord])
  /// A write's attempts as read for the detail (nil: the source keeps none).
  case attempts(id: String, WriteAttempts?)
  /// The detail's write read whole (its rows are summaries).
  case detailWhole(QueuedWrite)
}
