import MarfaQueue

/// What the state machine asks the app to do; the app runs queue calls off the UI thread.
package enum UIEffect: Sendable, Hashable {
  /// Read a page of a pane from `offset`.
  case reload(QueuePane, offset: Int, limit: Int)
  /// Read the copy's status (fill, counts, last drain).
  case loadStatus
  /// Release these writes.
  case release([String])
  /// Release every write blocked for a reason.
  case releaseReason(BlockedReason)
  /// Withdraw these writes, one after another (each reads its row from the instance).
  case withdraw([String])
  /// Discard these refused writes.
  case discard([String])
  /// Take the answered writes.
  case take
  /// Forget these answered writes.
  case forget([String])
  /// Put back the writes the last discard, forget or take took out (``UndoOffer``).
  case undo(UndoOffer)
  /// Drain now.
  case drain
  /// Fill the copy again from the instance (its queue kept).
  case fill
  /// Hold `updates()` (auto-drain on) or let it go.
  case toggleAutoDrain(on: Bool)
  /// Use another key.
  case useKey(String)
  /// Find where a followed write is now.
  case locate(String)
  /// Find where a write sits in its pane's new order (after `s`), to keep it selected.
  case reorder(QueuePane, String)
  /// Put this text on the terminal's clipboard (OSC 52).
  case copy(String)
  /// Write these writes' detail text to a file in the current folder.
  case export([String])
  /// Read the first few writes a confirmation acts on where the engine chooses them (a take, a
  /// release by reason), for the dialog to list.
  case examples(PendingAction)
  /// Count the blocked writes per reason, for the `R` menu.
  case countReasons
  /// Read the drains the store keeps, for the history view (`H`).
  case loadHistory
  /// Resolve a typed ID and find where its write is, to select it.
  case goto(String)
  /// Collect the ids of every write in a pane under the filter.
  case markAll(QueuePane, filter: String?)
  /// Redraw the whole terminal.
  case repaint
  /// Leave.
  case quit
}
