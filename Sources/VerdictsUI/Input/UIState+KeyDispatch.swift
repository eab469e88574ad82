import MarfaQueue

/// Keys to actions: a key goes to the prompt, the dialog, the focused detail or the key map, and
/// an action to its body (UIState+Actions).
extension UIState {
  /// A key: to the open prompt, dialog or help first, else to the action it is bound to.
  mutating func handleKey(_ key: Key) -> [UIEffect] {
    // A key in a prompt or dialog shows the selection in a held detail.
    if prompt != nil || dialog != nil { endDetailHold() }
    if prompt != nil { return promptKey(key) }
    if dialog != nil { return dialogKey(key) }
    if history != nil {
      switch keyMap.action(for: key) {
      case .down?: historyScroll += 1
      case .up?: historyScroll = max(0, historyScroll - 1)
      case .pageDown?: historyScroll += max(1, height - 8)
      case .pageUp?: historyScroll = max(0, historyScroll - max(1, height - 8))
      default: history = nil
      }
      return []
    }
    if showingHelp {
      switch keyMap.action(for: key) {
      case .down?: helpScroll += 1
      case .up?: helpScroll = max(0, helpScroll - 1)
      case .pageDown?: helpScroll += max(1, height - 6)
      case .pageUp?: helpScroll = max(0, helpScroll - max(1, height - 6))
      default: showingHelp = false
      }
      return []
    }
    if let step = guideStep {
      // The guide takes its own keys; every other key does what it always does, the guide stays.
      switch key {
      case .char("n"):
        guideStep = step + 1 < guide.count ? step + 1 : nil
        return []
      case .char("p"):
        guideStep = max(0, step - 1)
        return []
      case .escape:
        guideStep = nil
        message = StatusMessage("guide closed: ? lists every key")
        return []
      default: break
      }
    }
    guard let action = keyMap.action(for: key) else {
      message = StatusMessage("\(key.spelling): no action here (? for help)")
      return []
    }
    return perform(action)
  }

  /// Does what an action does, as if its key had been pressed.
  public mutating func perform(_ action: Action) -> [UIEffect] {
    if action.writes, let reason = readOnlyReason {
      let refusal = StatusMessage("read-only: \(action.summary) is not allowed (\(reason))", isError: true)
      message = refusal
      // No later action of a watcher's replaces it: it fades.
      fadeClock = FadeClock(message: refusal, since: nil)
      return []
    }
    if keyEndsDetailHold(action) { return [] }
    if detailFocused, let effects = detailKey(action) { return effects }
    switch action {
    case .nextPane: return focusPane(QueuePane(rawValue: (focus.rawValue + 1) % 4)!)
    case .previousPane: return focusPane(QueuePane(rawValue: (focus.rawValue + 3) % 4)!)
    case .paneWaiting: return focusPane(.waiting)
    case .paneAnswered: return focusPane(.answered)
    case .paneBlocked: return focusPane(.blocked)
    case .paneDead: return focusPane(.dead)
    case .down: return select(self[focus].selected + 1)
    case .up: return select(self[focus].selected - 1)
    case .top: return select(0)
    case .bottom: return select(self[focus].total - 1)
    case .pageDown: return select(self[focus].selected + pageRows(focus))
    case .pageUp: return select(self[focus].selected - pageRows(focus))
    case .focusDetail:
      detailFocused = true
      detailScroll = 0
      return relayout()
    case .mark: return toggleMark()
    case .markAll: return markAll()
    case .clear: return clear()
    case .release: return release()
    case .releaseReason:
      reasonCounts = nil
      message = nil  // the menu is what is said now (a cancelled one's words are not)
      let reasons = reasonMenu
      let current = selectedWrite?.verdict?.blockedReason.flatMap { reasons.firstIndex(of: $0) } ?? 0
      dialog = .releaseReason(selected: current)
      return [.countReasons]
    case .withdraw: return ask(PendingAction.withdraw)
    case .discard: return ask(PendingAction.discard)
    case .take:
      let answered = status?.counts.answered ?? self[.answered].total
      if confirmTake { return confirm(.take(answered: answered)) }
      return proceed(with: .take(answered: answered))
    case .forget: return forget()
    case .undo: return undo()
    case .drain:
      // A copy that expired, or whose fill was interrupted, drains nothing until it is filled
      // again: `d` offers that fill first.
      if let fill = status?.fill, fill != .complete {
        return confirm(.fill(from: status?.origin))
      }
      message = StatusMessage("draining…")
      return [.drain]
    case .autoDrain:
      autoDrain.toggle()
      message = StatusMessage(autoDrain ? "auto-drain on: drains when the instance comes back" : "auto-drain off")
      return [.toggleAutoDrain(on: autoDrain)]
    case .useKey:
      prompt = Prompt(kind: .key)
      return []
    case .filter:
      prompt = Prompt(kind: .filter, text: filter ?? "")
      return []
    case .refused: return showRefused()
    case .sort: return cycleOrder()
    case .pause: return togglePause()
    case .follow: return toggleFollow()
    case .goto:
      prompt = Prompt(kind: .goto)
      return []
    case .jump: return jump()
    case .copyID:
      guard let w = selectedWrite else { return refuse("copy: nothing selected") }
      guard clipboard else { return refuse("copy is off (clipboard = off in the config); the ID: \(w.id)") }
      // Through tmux or screen the copy may stop there: say what is known, and how to let it on.
      message = StatusMessage(clipboardRelay?.sent(w.id) ?? "copied \(w.id) to the clipboard")
      return [.copy(w.id)]
    case .export:
      let ids = targets
      guard !ids.isEmpty else { return refuse("export: nothing selected") }
      message = StatusMessage("exporting \(ids.count)…")
      return [.export(ids)]
    case .back: return back()
    case .tail: return toggleTail()
    case .help:
      showingHelp = true
      helpScroll = 0
      return []
    case .history:
      history = []
      historyScroll = 0
      return [.loadHistory]
    case .repaint: return [.repaint]
    case .quit: return [.quit]
    }
  }

  /// Keys while the detail has the focus: movement scrolls it, `esc` gives the focus back, `enter` jumps
  /// to the write a held write waits on (and gives the focus back when there is none).
  mutating func detailKey(_ action: Action) -> [UIEffect]? {
    let rows = max(1, layout.detailRows)
    switch action {
    case .down: detailScroll += 1
    case .up: detailScroll = max(0, detailScroll - 1)
    case .pageDown: detailScroll += rows
    case .pageUp: detailScroll = max(0, detailScroll - rows)
    case .top: detailScroll = 0
    case .bottom: detailScroll = Int.max / 2
    case .focusDetail:
      // `enter` on the detail of a held write follows its `held by` line; otherwise it gives the
      // focus back, as `esc` does.
      if let w = selectedWrite, w.waiting, w.follows ?? w.dependsOn.first != nil { return jump() }
      detailFocused = false
      return relayout()
    case .clear:
      detailFocused = false
      return relayout()
    default: return nil
    }
    return []
  }
}
