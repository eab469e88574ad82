import MarfaQueue

/// The bottom line's keys: only those that can act in this mode and on this selection, `? help`
/// and `q quit` at every width, labels shortened before a key is dropped.
extension Renderer {
  /// How the hint line words its keys, fullest first.
  enum HintWords: CaseIterable {
    /// Every key with its full word.
    case full
    /// The general keys (drain, filter, sort, …) in short words; the selection's in full.
    case shortGeneral
    /// Every key in short words but `help` and `quit`.
    case short
  }

  /// The general keys, the first to go when the line is too narrow (after their words were
  /// shortened), least needed first.
  static let dropOrder: [Action] = [.pause, .follow, .mark, .sort, .refused, .autoDrain, .drain, .filter]
  /// ``dropOrder`` as a set.
  static let droppable = Set(dropOrder)

  /// The actions that apply to what is selected now, then the general ones; in read-only mode
  /// none that changes the queue (help shows those, greyed, and pressing one says why).
  func applicableActions() -> [Action] {
    var actions: [Action] = []
    if state.detailFocused {
      if let w = state.selectedWrite, w.waiting, w.follows ?? w.dependsOn.first != nil {
        return [.down, .up, .jump, .clear, .help, .quit]
      }
      return [.down, .up, .focusDetail, .help, .quit]
    }
    // The engine's rule says which of the four write actions apply (QueuedWrite.allows).
    let ruled: [(WriteAction, Action)] = [
      (.release, .release), (.withdraw, .withdraw), (.discard, .discard), (.forget, .forget),
    ]
    if !state.marks.isEmpty {
      // An action the rule allows for some marked write (one not loaded may be any).
      let marked = state.marks.map { state.loadedWrite($0) }
      actions += ruled.filter { rule in marked.contains { $0?.allows(rule.0).isAllowed ?? true } }.map(\.1)
      actions.append(.clear)
    } else if let w = state.selectedWrite {
      actions += ruled.filter { w.allows($0.0).isAllowed }.map(\.1)
      if w.verdict?.blockedReason == .credentialRefused { actions.append(.useKey) }
      if w.verdict?.blockedReason != nil { actions.append(.releaseReason) }
      if w.allows(.forget).isAllowed, w.verdict?.refusal == nil { actions.append(.take) }
      actions = clearingFirst(actions, w)
      actions.append(.focusDetail)
    }
    var general: [Action] = [.drain, .autoDrain, .filter, .refused, .sort, .mark, .follow, .pause, .help, .quit]
    // `!` acts only where there are refused writes to show, or shows every write again.
    let refused = (state.status?.refused ?? 0) > 0 || state.filter == UIState.refusedFilter
    if !refused { general.removeAll { $0 == .refused } }
    for a in general where !actions.contains(a) { actions.append(a) }
    return state.readOnly ? actions.filter { !$0.writes } : actions
  }

  /// The keys for `actions` (all that apply now when nil), each with its word.
  func hints(_ actions: [Action]? = nil, words: HintWords = .full) -> TextLine {
    let general = Self.droppable
    var t = TextLine()
    for action in actions ?? applicableActions() {
      // In the detail of a held write, `enter` is the jump (the key map's own jump key works too).
      let detailJump = state.detailFocused && action == .jump
      guard let key = detailJump ? state.keyMap.hint(.focusDetail) : state.keyMap.hint(action) else { continue }
      if !t.spans.isEmpty { t.append(" ") }
      t.append(key, .key)
      // In the detail, `esc` leaves it: the word is "back", not "clear".
      let back = state.detailFocused && action == .clear
      let short = words == .short || (words == .shortGeneral && general.contains(action))
      let word = back ? "back" : short ? action.shortHint : action.hint
      t.append(" " + word, .text)
    }
    return t
  }

  /// The hint line in `width` columns: every key that applies in full words if they fit, else
  /// the general keys' words shortened; only then the general keys go (``dropOrder``), each
  /// step trying full words again; then the selection's words are shortened, and only then its
  /// keys go, from the last. `? help` and `q quit` always stay, in full.
  func fittedHints(width: Int) -> TextLine {
    var shown = applicableActions()
    func first(_ words: [HintWords]) -> TextLine? {
      for w in words {
        let line = hints(shown, words: w)
        if line.width <= width { return line }
      }
      return nil
    }
    if let line = first([.full, .shortGeneral]) { return line }
    for drop in Self.dropOrder where shown.contains(drop) {
      shown.removeAll { $0 == drop }
      if let line = first([.full, .shortGeneral]) { return line }
    }
    if let line = first([.short]) { return line }
    for drop in shown.filter({ $0 != .help && $0 != .quit }).reversed() {
      shown.removeAll { $0 == drop }
      if let line = first([.full, .short]) { return line }
    }
    return hints(shown, words: .short)
  }

  /// The columns the selection's keys, `? help` and `q quit` take in full words: a message
  /// goes before the keys on the bottom line only when it leaves them that.
  var keptHintsWidth: Int {
    // The actions that apply are worked out once: a frame's layout asks this many times.
    let applicable = applicableActions()
    return hints(Self.writeActions(in: applicable) + [.help, .quit].filter(applicable.contains)).width
  }
}
