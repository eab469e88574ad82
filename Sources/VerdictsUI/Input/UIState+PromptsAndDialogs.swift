import FoundationEssentials
import MarfaQueue

extension UIState {
  /// Keys while a prompt is open: typing, backspace, enter to submit, esc to cancel.
  mutating func promptKey(_ key: Key) -> [UIEffect] {
    guard var p = prompt else { return [] }
    switch key {
    case .char(let c):
      p.text.append(c)
      prompt = p
      // `streak:` being typed is a field term not finished yet: what was applied stays until
      // its value comes (enter would take it as the plain text it is).
      if p.kind == .filter, Self.typingFieldName(p.text) { return [] }
      return p.kind == .filter ? applyFilter(p.text) : []
    case .backspace, .delete:
      if !p.text.isEmpty { p.text.removeLast() }
      prompt = p
      return p.kind == .filter ? applyFilter(p.text) : []
    case .ctrl("u"):
      p.text = ""
      prompt = p
      return p.kind == .filter ? applyFilter(p.text) : []
    case .escape:
      prompt = nil
      if p.kind == .filter {
        // esc clears the filter the typing applied.
        message = StatusMessage("filter cleared")
        return applyFilter("")
      }
      message = StatusMessage(p.kind == .key ? "key unchanged" : "go to cancelled")
      return []
    case .enter:
      // A filter that names a field there is not stays open, its problem shown under it.
      if p.kind == .filter, filterProblem != nil { return [] }
      prompt = nil
      return submit(p)
    default:
      return []
    }
  }

  mutating func submit(_ p: Prompt) -> [UIEffect] {
    switch p.kind {
    case .key:
      let key = p.text.trimmingSpaces()
      guard !key.isEmpty else { return refuse("key unchanged: none was typed") }
      message = StatusMessage("trying the new key…")
      return [.useKey(key)]
    case .goto: return goto(p.text)
    case .filter:
      // Already applied key by key; enter keeps it.
      let effects = applyFilter(p.text)
      message = StatusMessage(p.text.isEmpty ? "filter cleared" : "filter: \(p.text)")
      return effects
    }
  }

  /// Whether the last word typed is a known field's name and its colon, its value still to come.
  static func typingFieldName(_ text: String) -> Bool {
    guard text.hasSuffix(":"), let last = text.split(separator: " ").last else { return false }
    let word = last.hasPrefix("-") ? last.dropFirst() : last
    return (WriteFilter.fields + ["rows"]).contains(word.dropLast().lowercased())
  }

  /// Why the filter being typed is refused (a field there is not, a value its field cannot take),
  /// shown under it as it is typed; nil when there is no filter prompt or it is taken.
  var filterProblem: String? {
    guard let p = prompt, p.kind == .filter else { return nil }
    return WriteFilter.problem(in: p.text)
  }

  /// Applies the filter as typed so far, across all panes, from the top of each; nothing when
  /// it is what is applied already, or when it is refused (``filterProblem``: what was applied
  /// stays applied).
  mutating func applyFilter(_ text: String) -> [UIEffect] {
    guard WriteFilter.problem(in: text) == nil else { return [] }
    let new = text.trimmingSpaces().isEmpty ? nil : text
    guard new != filter else { return [] }
    filter = new
    for pane in QueuePane.allCases {
      self[pane].selected = 0
      self[pane].top = 0
    }
    return reloadAll()
  }

  /// Keys while a dialog is up: `y` confirms, the menu moves and chooses, anything else cancels.
  mutating func dialogKey(_ key: Key) -> [UIEffect] {
    guard let d = dialog else { return [] }
    switch d {
    case .confirm(let pending):
      dialog = nil
      if key == .char("y") || key == .char("Y") { return proceed(with: pending) }
      skipNote = nil
      message = StatusMessage("\(pending.verb) cancelled")
      return []
    case .releaseReason(let selected):
      let reasons = reasonMenu
      switch key {
      case .char("j"), .down:
        dialog = .releaseReason(selected: min(reasons.count - 1, selected + 1))
        return []
      case .char("k"), .up:
        dialog = .releaseReason(selected: max(0, selected - 1))
        return []
      case .enter:
        return releaseReason(reasons[selected])
      case .char(let c) where c.wholeNumberValue.flatMap(BlockedReason.forMenuKey) != nil:
        // Each reason keeps its digit as others empty: a digit is never another reason's.
        guard let reason = c.wholeNumberValue.flatMap(BlockedReason.forMenuKey) else { return [] }
        guard reasons.contains(reason) else {
          message = StatusMessage("no write is blocked \(reason.wireName) now: nothing released", isError: true)
          return []
        }
        return releaseReason(reason)
      default:
        dialog = nil
        message = StatusMessage("release by reason cancelled")
        return []
      }
    }
  }

  /// A reason chosen in the `R` menu: more than one write (or a count not read yet) asks first,
  /// listing the first few, as `r` on marks does; one goes at once.
  mutating func releaseReason(_ reason: BlockedReason) -> [UIEffect] {
    let pending = PendingAction.releaseReason(reason, count: reasonCounts?[reason])
    if confirmBulk, (reasonCounts?[reason] ?? 2) > 1 { return confirm(pending) }
    dialog = nil
    return proceed(with: pending)
  }

  /// Puts up the confirmation for `pending`; where the engine chooses its writes, asks the store
  /// for the first few to list.
  mutating func confirm(_ pending: PendingAction) -> [UIEffect] {
    dialog = .confirm(pending)
    dialogExamples = nil
    message = nil  // the dialog is what is said now (`withdraw cancelled` before it is not)
    return pending.engineChooses ? [.examples(pending)] : []
  }
}
