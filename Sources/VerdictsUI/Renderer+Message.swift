import MarfaQueue

/// The last action's message and the keys that must stay on the bottom line.
///
/// The bottom line always shows the keys for the selected write: a message that leaves them no
/// room is not put before them but drawn just above the status line, word-wrapped upwards over
/// the bottom rows of the panes, so every word of an outcome stays readable, the status line
/// stays whole and no key is pushed out.
extension Renderer {
  /// The most rows a long message takes, counted up from the row above the status line.
  var messageRowLimit: Int { max(1, min(8, layout.status.y - 1)) }

  /// The actions for the selected write (or the marks): the first of the hints, never cut.
  func writeActions() -> [Action] {
    let general: Set<Action> = [.drain, .autoDrain, .filter, .mark, .follow, .pause, .help, .quit]
    return applicableActions().filter { !general.contains($0) }
  }

  /// The message as the bottom line draws it (ASCII ellipses under `--ascii`).
  func messageText(_ m: StatusMessage) -> String {
    state.ascii ? m.text.replacingOccurrences(of: "…", with: "...") : m.text
  }

  /// The selected write's actions with the one that clears it first: `K` for a refused key,
  /// withdraw for a row the key cannot read or a conflict a resend would meet again.
  func clearingFirst(_ actions: [Action], _ w: QueuedWrite) -> [Action] {
    let first: [Action]
    switch w.verdict?.blockedReason {
    case .credentialRefused?: first = [.useKey]
    case .conflictUnresolved?, .ancestorUnavailable?: first = [.withdraw]
    default: return actions
    }
    return first.filter(actions.contains) + actions.filter { !first.contains($0) }
  }

  /// Whether the message fits on the bottom line with the selected write's keys after it.
  var messageFitsOnBottom: Bool {
    guard let m = state.message else { return true }
    let keys = hints(writeActions()).width
    return CharWidth.of(messageText(m)) + 4 + keys <= layout.hints.width
  }

  /// Draws a message that does not fit on the bottom line on the rows just above the status
  /// line, as many as it needs (up to ``messageRowLimit``), word-wrapped.
  func drawLongMessage(into grid: inout Grid) {
    guard let m = state.message, !messageFitsOnBottom, state.prompt == nil else { return }
    let width = layout.status.width
    let role: Role = m.isError ? .statusError : .statusOK
    var lines = Self.wordWrap(messageText(m), width: width - 2)
    let rows = min(messageRowLimit, lines.count)
    var cut = false
    if lines.count > rows {
      lines = Array(lines.prefix(rows))
      cut = true
    }
    let bottom = layout.status.y - 1
    for (i, text) in lines.enumerated() {
      let y = bottom - rows + 1 + i
      guard y >= 0 else { continue }
      grid.fill(Rect(x: 0, y: y, width: width, height: 1), role: role)
      let last = i == lines.count - 1 && cut
      TextLine(" " + text, role).draw(
        into: &grid, x: 0, y: y, limit: last ? width - 1 : width, ellipsis: last ? glyphs.ellipsis : nil)
      if last { grid.put(glyphs.ellipsis, x: width - 2, y: y, role: role, limit: 1) }
    }
  }

  /// `text` broken at spaces into lines of at most `width` columns (a longer word is cut).
  static func wordWrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var current = ""
    var used = 0
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      var w = String(word)
      var ww = CharWidth.of(w)
      if used > 0, used + 1 + ww > width {
        lines.append(current)
        current = ""
        used = 0
      }
      while ww > width {
        // A word longer than the line: cut it where it fills the line.
        var head = ""
        var hw = 0
        for ch in w {
          let cw = max(0, CharWidth.of(ch))
          if hw + cw > width - used - (used > 0 ? 1 : 0) { break }
          head.append(ch)
          hw += cw
        }
        if head.isEmpty { break }
        current += (used > 0 ? " " : "") + head
        lines.append(current)
        current = ""
        used = 0
        w.removeFirst(head.count)
        ww = CharWidth.of(w)
      }
      if used > 0 {
        current += " "
        used += 1
      }
      current += w
      used += ww
    }
    if !current.isEmpty || lines.isEmpty { lines.append(current) }
    return lines
  }
}
