import FoundationEssentials

extension DrainPass {
  /// The shortest gap between two writes of the drain's progress into the writer's record: at
  /// most four extra store writes a second, whatever the drain's pace (times ``TimeScale``, 1 but
  /// in an instruction profile).
  static var progressInterval: Duration { .milliseconds(250) * TimeScale.current }

  /// The progress the report says so far.
  mutating func currentProgress() -> WriterRecord.DrainProgress? {
    guard var p = progress else { return nil }
    let r = report
    p.verdicts = r.verdictCounts
    let sent = min(p.total, r.answered + r.held + r.undelivered + r.unsent + r.unmade)
    if sent != p.sent || p.movedAt == nil { p.movedAt = Date() }
    p.sent = sent
    p.answered = r.answered
    progress = p
    return p
  }

  /// Starts publishing progress for a pass over `total` waiting writes (written at once).
  mutating func beginProgress(total: Int) async throws {
    guard copy.publishesDrainProgress else { return }
    progress = WriterRecord.DrainProgress(startedAt: Date(), total: total)
    lastPublished = nil
    try await publishProgress()
  }

  /// Writes the progress into the writer's record when the last write is older than
  /// ``progressInterval`` (or always with `force`). On the store's queue, inside the pass's group.
  mutating func publishProgress(force: Bool = false) async throws {
    guard progress != nil else { return }
    let now = ContinuousClock.now
    if !force, let last = lastPublished, now - last < Self.progressInterval {
      // Not yet: the store's group timer writes it when the interval is up, unless a newer one
      // comes first, so a pass that then waits on a slow answer does not show the old count.
      guard let p = currentProgress() else { return }
      let copy = self.copy
      store.hold(
        Store.HeldMeta(
          key: .writer, due: last + Self.progressInterval,
          text: { copy.writerText { $0.drain = p } }, written: { copy.notePublished() }))
      return
    }
    lastPublished = now
    store.dropHeldMeta()
    guard let p = currentProgress(), let text = copy.writerText({ $0.drain = p }) else { return }
    try await store.run { try $0.setMeta(.writer, text) }
    copy.notePublished()
    let spent = ContinuousClock.now - now
    copy.progressSpent.withLock {
      $0.time += spent
      $0.writes += 1
    }
  }

  /// The record's text for the pass's end: no drain in progress, this one as the last.
  /// The caller writes it (the record is then in the store: noted here).
  /// With `report`, what the pass met of the instance goes in the record too: unreachable with
  /// the report's `unavailable` when it ended so, reachable when the instance answered.
  mutating func endedProgressText(stopped: Bool, report: DrainReport? = nil) -> String? {
    store.dropHeldMeta()
    let now = Date()
    func meet(_ r: inout WriterRecord) -> Bool {
      guard let report else { return false }
      if let u = report.unavailable { return r.noteInstance(reachable: false, met: u, at: now, nextTry: nil) }
      return r.noteInstance(reachable: true, met: nil, at: now, nextTry: nil)
    }
    guard var p = currentProgress() else {
      var changed = false
      guard
        let text = copy.writerText({ r in
          changed = meet(&r)
          if stopped, !r.keyRefused {
            r.keyRefused = true
            changed = true
          }
        }), changed
      else { return nil }
      copy.notePublished()
      return text
    }
    p.endedAt = now
    progress = nil
    copy.notePublished()
    return copy.writerText { r in
      r.drain = nil
      r.lastDrain = p
      _ = meet(&r)
      if stopped { r.keyRefused = true }
    }
  }
}
