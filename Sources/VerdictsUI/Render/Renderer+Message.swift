import MarfaQueue

/// The last action's message and the keys that must stay on the bottom line.
///
/// The bottom line always shows the keys for the selected write: a message that leaves them no
/// room is not put before them but drawn just above the status line, word-wrapped upwards over
/// the bottom rows of the panes, so every word of an outcome stays readable, the status line
/// stays whole and no key is pushed out.
extension Renderer {
  /// The most rows a long message takes.
  static let messageRowLimit = 6

  /// How many rows of its own the message needs (0 when it fits on the bottom line, or the
  /// screen is too small to give any).
  static func messageRows(_ state: UIState, _ layout: Layout) -> Int {
    guard layout.mode != .tooSmall, layout.mode != .tooLarge else { return 0 }
    if let problem = state.filterProblem {
      // A refused filter is said under the panes, just above the prompt, as it is typed.
      return min(wordWrap(problem, width: max(1, state.width - 2)).count, messageRowLimit)
    }
    guard let m = state.message, state.prompt == nil else { return 0 }
    let r = Renderer(bare: state, layout: layout)
    guard !r.messageFitsOnBottom else { return 0 }
    let lines = wordWrap(r.messageText(m), width: max(1, state.width - 2)).count
    return min(lines, messageRowLimit)
  }

  /// The actions for the selected write (or the marks): the first of the hints, never cut.
  func writeActions() -> [Action] { Self.writeActions(in: applicableActions()) }

  /// The actions of `applicable` that are not general keys (``generalActions``).
  static func writeActions(in applicable: [Action]) -> [Action] {
    applicable.filter { !generalActions.contains($0) }
  }

  /// The keys that apply whatever is selected: ``dropOrder``, help and quit.
  static let generalActions = Set(dropOrder + [.help, .quit])

  /// The message as the bottom line draws it (ASCII ellipses under `--ascii`).
  func messageText(_ m: StatusMessage) -> String {
    state.ascii ? m.text.replacing("…", with: "...") : m.text
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
    let keys = keptHintsWidth
    return CharWidth.of(messageText(m)) + 4 + keys <= layout.hints.width
  }

  /// Whether the message goes on the bottom line: it fits before the write's keys, or no rows
  /// could be made for it and drawing above the status line would break a box (then it is cut
  /// before the keys; the log has it whole).
  var messageOnBottom: Bool {
    if messageFitsOnBottom { return true }
    let ownRows = layout.hints.y - (layout.status.y + layout.status.height)
    return ownRows <= 0 && layout.mode != .single
  }

  /// The message cut, if it must be, to the room the write's keys leave on the bottom line.
  func fittedMessage(_ m: StatusMessage) -> String {
    let text = messageText(m)
    return fit(text, max(10, layout.hints.width - keptHintsWidth - 4))
  }

  /// Draws a message that does not fit on the bottom line on its own rows, between the status
  /// line and the keys (``Renderer/init(state:)`` made room), word-wrapped.
  func drawLongMessage(into grid: inout Grid) {
    if let problem = state.filterProblem {
      drawOwnRows(problem, role: .statusError, into: &grid)
      return
    }
    guard let m = state.message, !messageOnBottom, state.prompt == nil else { return }
    drawOwnRows(messageText(m), role: m.isError ? .statusError : .statusOK, into: &grid)
  }

  /// Draws `text` word-wrapped on the rows between the status line and the keys (or, where
  /// none could be made, over the rows just above the status line).
  func drawOwnRows(_ text: String, role: Role, into grid: inout Grid) {
    let width = layout.status.width
    var lines = Self.wordWrap(text, width: width - 2)
    var first = layout.status.y + layout.status.height
    var rows = layout.hints.y - first
    if rows <= 0 {
      // No rows could be given up at 40×10 (no boxes there): over the rows just above the status line.
      rows = min(lines.count, max(1, min(8, layout.status.y - 1)))
      first = layout.status.y - rows
    }
    let cut = lines.count > rows
    if cut { lines = Array(lines.prefix(rows)) }
    for (i, text) in lines.enumerated() {
      let y = first + i
      grid.fill(Rect(x: 0, y: y, width: width, height: 1), role: role)
      let last = cut && i == lines.count - 1
      TextLine(" " + text, role).draw(into: &grid, x: 0, y: y, limit: width, ellipsis: nil)
      if last { grid.put(glyphs.ellipsis, x: width - 1, y: y, role: role, limit: 1) }
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
