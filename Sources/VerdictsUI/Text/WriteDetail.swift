import MarfaQueue
import MarfaWire

/// One write as the detail pane shows it, as plain text for `verdicts show` and for export.
public enum WriteDetail {
  /// The detail pane's lines for `write`, unwrapped, one string per line (no trailing newline).
  ///
  /// - Parameters:
  ///   - status: the store's status, for the instance the copy is filled from and whose store it is.
  ///   - waitedOnBy: the IDs of the writes that wait on this one.
  ///   - ascii: ASCII glyphs only.
  ///   - departed: the write left the queue (`show` from the archive): no action is offered.
  public static func text(
    _ write: QueuedWrite, status: Status?, waitedOnBy: [String], ascii: Bool, departed: Bool = false
  ) -> String {
    var state = UIState(width: 200, height: 50)
    state.ascii = ascii
    state.status = status
    let lines = Renderer(state: state).detailLines(
      write, width: Int.max / 2, waitedOnBy: waitedOnBy, departed: departed)
    return lines.map { line in
      // What the instance said reaches the terminal only as visible text.
      var text = Sanitizer.clean(line.plain, ascii: ascii)
      while text.last == " " { text.removeLast() }
      return text
    }.joined(separator: "\n")
  }
}
