import MarfaQueue

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
      return run(.take(answered: answered))
    case .forget: return forget()
    case .undo: return undo()
    case .drain:
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

  mutating func focusPane(_ pane: QueuePane) -> [UIEffect] {
    focus = pane
    detailFocused = false
    detailScroll = 0
    let effects = relayout()
    if following != nil, let id = selectedWrite?.id { following = id }
    return effects
  }

  mutating func select(_ index: Int) -> [UIEffect] {
    let before = self[focus].selected
    self[focus].selected = index
    clampSelection(focus)
    keepSelectionVisible(focus)
    if self[focus].selected != before { detailScroll = 0 }
    if following != nil, let id = selectedWrite?.id { following = id }
    stopTailingIfMoved()
    return reloadIfNeeded(focus).map { [$0] } ?? []
  }

  mutating func toggleMark() -> [UIEffect] {
    guard let id = selectedWrite?.id else {
      message = StatusMessage("nothing to mark")
      return []
    }
    if marks.contains(id) { marks.remove(id) } else { marks.insert(id) }
    message = StatusMessage("\(marks.count) marked")
    return []
  }

  mutating func markAll() -> [UIEffect] {
    let p = self[focus]
    if p.offset == 0, p.writes.count >= p.total {
      let ids = Set(p.writes.map(\.id))
      if ids.isSubset(of: marks), !ids.isEmpty {
        marks.subtract(ids)
      } else {
        marks.formUnion(ids)
      }
      message = StatusMessage("\(marks.count) marked")
      return []
    }
    message = StatusMessage("marking every write in \(focus.title)…")
    return [.markAll(focus, filter: filter)]
  }

  mutating func clear() -> [UIEffect] {
    let hadFilter = filter != nil
    marks = []
    message = nil
    guard hadFilter else { return [] }
    filter = nil
    for pane in QueuePane.allCases {
      self[pane].selected = 0
      self[pane].top = 0
    }
    return reloadAll()
  }

  /// The writes an action names: the marked ones, else the selected one.
  var targets: [String] {
    if !marks.isEmpty { return marks.sorted() }
    return selectedWrite.map { [$0.id] } ?? []
  }

  /// A loaded write by id, in any pane.
  func loadedWrite(_ id: String) -> QueuedWrite? {
    for pane in panes { if let w = pane.writes.first(where: { $0.id == id }) { return w } }
    return nil
  }

  /// The writes `action` may take, asked of the engine's rule (``QueuedWrite/allows(_:)``), the
  /// same with marks and without.
  ///
  /// Without marks: the selected write, or nil and a message naming why the rule refuses it.
  /// With marks: the marked writes the rule lets it take; those it refuses are skipped and
  /// counted in ``skipNote`` (said with the action's outcome). A marked write not loaded goes
  /// to the engine, which asks the same rule. Nil, marks kept, when the rule refuses them all.
  mutating func targets(for action: WriteAction) -> [String]? {
    let verb = action.rawValue
    skipNote = nil
    if marks.isEmpty {
      guard let w = selectedWrite else {
        _ = refuse("\(verb): nothing selected")
        return nil
      }
      if let obstacle = w.allows(action).obstacle {
        _ = refuse("\(verb): \(ShortID.of(w.id)) \(obstacle.predicate)")
        return nil
      }
      return [w.id]
    }
    var allowed: [String] = []
    var skipped: [(String, ActionObstacle)] = []
    for id in marks.sorted() {
      if let obstacle = loadedWrite(id)?.allows(action).obstacle {
        skipped.append((id, obstacle))
      } else {
        allowed.append(id)
      }
    }
    guard let first = skipped.first else { return allowed }
    let why = "\(ShortID.of(first.0)) \(first.1.predicate)"
    if allowed.isEmpty {
      _ = refuse("\(verb): none of the \(marks.count) marked can be taken (\(why))")
      return nil
    }
    skipNote = "skipped \(skipped.count) of \(marks.count) marked (\(skipped.count > 1 ? "e.g. " : "")\(why))"
    return allowed
  }

  mutating func release() -> [UIEffect] {
    guard let ids = targets(for: .release) else { return [] }
    if ids.count > 1, confirmBulk { return confirm(.release(ids)) }
    return run(.release(ids))
  }

  mutating func ask(_ make: ([String]) -> PendingAction) -> [UIEffect] {
    let action: WriteAction
    switch make([]) {
    case .discard: action = .discard
    default: action = .withdraw
    }
    guard let ids = targets(for: action) else { return [] }
    let pending = make(ids)
    let confirm: Bool
    switch pending {
    case .discard: confirm = confirmDiscard
    default: confirm = confirmWithdraw
    }
    if confirm { return self.confirm(pending) }
    return run(pending)
  }

  /// `u`: puts back what the last discard, forget or take took out, right after it.
  mutating func undo() -> [UIEffect] {
    guard let offer = undoOffer else {
      message = StatusMessage(
        "nothing to undo: \(keyMap.hint(.undo) ?? "u") puts back the last discard, forget or take, right after it",
        isError: true)
      return []
    }
    undoOffer = nil
    message = StatusMessage("undoing the \(offer.action) of \(offer.ids.count)…")
    return [.undo(offer)]
  }

  mutating func run(_ pending: PendingAction) -> [UIEffect] {
    // Another action changes the queue: the last one is no longer undone by `u`.
    undoOffer = nil
    switch pending {
    case .take:
      message = StatusMessage("taking the answered writes…")
      return [.take]
    case .releaseReason(let reason, _):
      message = StatusMessage("releasing every write blocked \(reason.wireName)…")
      return [.releaseReason(reason)]
    default: break
    }
    marks = []
    let doing = ["withdraw": "withdrawing", "discard": "discarding", "release": "releasing", "forget": "forgetting"]
    message = StatusMessage("\(doing[pending.verb] ?? pending.verb) \(pending.ids.count)…")
    switch pending {
    case .withdraw(let ids): return ids.map(UIEffect.withdraw)
    case .discard(let ids): return ids.map(UIEffect.discard)
    case .release(let ids): return [.release(ids)]
    case .forget(let ids): return [.forget(ids)]
    case .take, .releaseReason: return []
    }
  }

  mutating func forget() -> [UIEffect] {
    guard let ids = targets(for: .forget) else { return [] }
    if ids.count > 1, confirmBulk { return confirm(.forget(ids)) }
    return run(.forget(ids))
  }

  mutating func togglePause() -> [UIEffect] {
    paused.toggle()
    if paused {
      message = StatusMessage("paused: the panes hold still (\(keyMap.hint(.pause) ?? "Z") resumes)")
      return []
    }
    let missed = pendingChanges
    pendingChanges = 0
    message = StatusMessage(missed > 0 ? "resumed; \(missed) change(s) while paused" : "resumed")
    guard missed > 0 else { return [] }
    changeReads = Set(QueuePane.allCases)
    return reloadAll()
  }

  mutating func toggleFollow() -> [UIEffect] {
    if let id = following {
      following = nil
      message = StatusMessage("stopped following \(ShortID.of(id))")
      return []
    }
    guard let w = selectedWrite else { return refuse("follow: nothing selected") }
    following = w.id
    message = StatusMessage("following \(ShortID.of(w.id)) as it moves")
    return []
  }

  mutating func refuse(_ text: String) -> [UIEffect] {
    message = StatusMessage(text, isError: true)
    return []
  }
}
