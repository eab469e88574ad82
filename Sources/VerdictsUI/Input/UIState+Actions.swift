import MarfaQueue

/// The bodies of the actions a key or click names: selection, marks, the queue calls (asked
/// first where they take more than one write), pause and follow.
extension UIState {
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
    return proceed(with: .release(ids))
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
    return proceed(with: pending)
  }

  /// `u`: puts back what the last discard, forget or take took out, right after it.
  mutating func undo() -> [UIEffect] {
    guard let offer = undoOffer else {
      message = StatusMessage(
        "nothing to undo: \(keyMap.hint(.undo) ?? "u") puts back the last discard, forget, take or release, right after it",
        isError: true)
      return []
    }
    undoOffer = nil
    message = StatusMessage("undoing the \(offer.action) of \(offer.ids.count)…")
    return [.undo(offer)]
  }

  /// Carries out a confirmed (or unasked) action: the effect that makes the queue call, and the
  /// progress message until its outcome comes.
  mutating func proceed(with pending: PendingAction) -> [UIEffect] {
    // Another action changes the queue: the last one is no longer undone by `u`.
    undoOffer = nil
    switch pending {
    case .take:
      message = StatusMessage("taking the answered writes…")
      return [.take]
    case .releaseReason(let reason, _):
      message = StatusMessage("releasing every write blocked \(reason.wireName)…")
      return [.releaseReason(reason)]
    case .fill:
      message = StatusMessage("filling the copy again…")
      return [.fill]
    default: break
    }
    marks = []
    let doing = ["withdraw": "withdrawing", "discard": "discarding", "release": "releasing", "forget": "forgetting"]
    message = StatusMessage("\(doing[pending.verb] ?? pending.verb) \(pending.ids.count)…")
    switch pending {
    case .withdraw(let ids): return [.withdraw(ids)]
    case .discard(let ids): return [.discard(ids)]
    case .release(let ids): return [.release(ids)]
    case .forget(let ids): return [.forget(ids)]
    case .take, .releaseReason, .fill: return []
    }
  }

  mutating func forget() -> [UIEffect] {
    guard let ids = targets(for: .forget) else { return [] }
    if ids.count > 1, confirmBulk { return confirm(.forget(ids)) }
    return proceed(with: .forget(ids))
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
