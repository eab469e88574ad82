import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension WorkingCopy {
  /// The writer role as a command that wants it would find it now, asked without taking it: a
  /// reader's `status` says whether the role is free without standing in a drain's way.
  package func writerRoleOnOffer() -> Handle { store.roleOnOffer() }

  /// Who holds the store's writer role and what it is doing, as it published it, with whether
  /// it is still there (``WriterRecord/state``); nil when no writer ever published one and none
  /// holds the role now.
  ///
  /// Reads one `meta` row and asks the kernel about the writer's lock; takes nothing, so a
  /// watcher never stands in a writer's way. A record whose writer closed cleanly says
  /// ``WriterRecord/State/closed``; one whose writer died without closing says
  /// ``WriterRecord/State/gone``.
  public func writer() async throws -> WriterRecord? {
    try checkOpen()
    // The lock is asked before and after the record is read. A writer that closes writes its
    // record, then lets the lock go: a record read before that write, with the lock asked after
    // it went, would say `gone` of a clean close. When the two answers differ, the role changed
    // hands during the read, and it is read again.
    var held = store.writerIsLive()
    for _ in 0..<3 {
      let text = try await storedWriterText()
      let after = store.writerIsLive()
      if after == held { return sightingOfStored(text, held: after) }
      held = after
    }
    return sightingOfStored(try await storedWriterText(), held: store.writerIsLive())
  }

  /// The writer's record as stored (its damage noted).
  private func storedWriterText() async throws -> String? {
    try await store.run { db in
      let text = try db.meta(.writer)
      db.note(WriterRecord.damage(inStored: text))
      return text
    }
  }

  /// The stored record read against the lock (`held`: whether the writer's lock is held, asked
  /// after the record was read). In this process's writer before it published its own, the
  /// stored record is its predecessor's, whose role was let go (closed, or gone); with none
  /// stored, the role is this process's, not yet published.
  func sightingOfStored(_ text: String?, held: Bool) -> WriterRecord? {
    if store.handle.isWriter, !writerPublished.withLock({ $0 }) {
      if let predecessor = Self.sighting(text, held: false) { return predecessor }
      return Self.sighting(nil, held: held, holder: store.lockPath)
    }
    return Self.sighting(text, held: held, holder: store.lockPath)
  }

  /// When the store's last drain ended (ISO-8601), by whichever writer ran it; nil when no drain
  /// was kept. One `meta` row: cheap to ask every second (`watch --plain`).
  public func lastDrainEndedAt() async throws -> String? {
    try checkOpen()
    return try await store.run { try $0.meta(.lastDrainAt) }
  }

  /// A stored record read against the lock: live, closed or gone. A role held with no record of
  /// its holder's (one that took it a moment ago and has not published yet, or an earlier build)
  /// is named by the lock's holder as the kernel names it (`holder`: the lock file's path).
  static func sighting(_ text: String?, held: Bool, holder lockPath: String? = nil) -> WriterRecord? {
    var record = text.flatMap(JSONValue.parse).flatMap(WriterRecord.init(storedJSON:))
    switch (record?.closedAt, held) {
    case (nil, true) where record != nil: record?.state = .live
    case (nil, false) where record != nil: record?.state = .gone
    case (.some, false): record?.state = .closed
    default:
      // Someone holds the role but published nothing of it (an earlier build), or nobody ever wrote.
      guard held else { return nil }
      let pid = lockPath.flatMap(StoreLock.holder(of:)) ?? 0
      var unpublished = WriterRecord(
        program: pid > 0 ? StoreLock.processName(pid) ?? "" : "", mode: "", pid: pid, host: "",
        startedAt: record?.updatedAt ?? Date(timeIntervalSince1970: 0))
      unpublished.unpublished = true
      unpublished.lastDrain = record?.lastDrain
      return unpublished
    }
    return record
  }

  /// Whether drains publish their progress in the writer's record (on unless a measurement
  /// turns it off to time what publishing costs: `verdicts-bench drain`).
  package var publishesDrainProgress: Bool {
    get { drainProgressPublished.withLock { $0 } }
    set { drainProgressPublished.withLock { $0 = newValue } }
  }

  /// Time this copy's drains spent publishing their progress, and how many record writes they
  /// made (for `verdicts-bench drain`).
  package var progressPublishing: (time: Duration, writes: Int) { progressSpent.withLock { $0 } }

  /// Says who this writer is (program and mode) in its published record, e.g. `verdicts` / `tui`,
  /// and publishes it now; with `publish: false`, only from its next drain or auto-drain on (a short
  /// command that fails leaves the store as it was). A reading handle has nothing to publish.
  public func describeWriter(program: String, mode: String, publish: Bool = true) async {
    if publish {
      await publishWriter {
        $0.program = program
        $0.mode = mode
      }
    } else {
      writerRecord.withLock {
        $0?.program = program
        $0?.mode = mode
      }
    }
  }

  /// The record a writer publishes when it opens the store: the library, until the program says more.
  static func openingRecord() -> WriterRecord {
    var name = [CChar](repeating: 0, count: 256)
    let host = gethostname(&name, name.count) == 0 ? String(cString: name) : ""
    var record = WriterRecord(
      program: ProcessInfo.processInfo.processName, mode: "library", pid: getpid(), host: host, startedAt: Date())
    record.heartbeatSeconds = Int(WriterRecord.heartbeat.components.seconds)
    return record
  }

  /// Publishes what the writer met of its instance, when the record does not say it already.
  func publishInstance(reachable: Bool, met: String?, nextTry: Date?) async {
    let now = Date()
    let changed = writerRecord.withLock { r -> Bool in
      guard var copy = r else { return false }
      return copy.noteInstance(reachable: reachable, met: met, at: now, nextTry: nextTry)
    }
    guard changed else { return }
    await publishWriter { _ = $0.noteInstance(reachable: reachable, met: met, at: now, nextTry: nextTry) }
  }

  /// Changes this writer's record and writes it to the store (nothing for a reader).
  func publishWriter(_ change: (inout WriterRecord) -> Void) async {
    guard let text = writerText(change) else { return }
    if (try? await store.run { try $0.setMeta(.writer, text) }) != nil { notePublished() }
  }

  /// The record's text with `change` applied, kept as this writer's record: for callers already
  /// on the store's queue (the drain), which write it themselves.
  func writerText(_ change: (inout WriterRecord) -> Void) -> String? {
    guard store.handle.isWriter else { return nil }
    return writerRecord.withLock { r -> String? in
      guard var record = r else { return nil }
      change(&record)
      record.updatedAt = Date()
      r = record
      return record.storedJSON.text
    }
  }

  /// Notes that the record is in the store (the caller wrote `writerText`'s text), and starts
  /// the heartbeat the record promises.
  func notePublished() {
    let first = writerPublished.withLock { was in
      defer { was = true }
      return !was
    }
    if first { startHeartbeat() }
  }

  /// Refreshes the record's `updatedAt` once a ``WriterRecord/heartbeat`` when nothing else
  /// wrote it for that long (an idle writer writes its store once a minute, no more), so a
  /// watcher tells a writer that lives from one that is stopped or hangs (``WriterRecord/silent(now:)``).
  private func startHeartbeat() {
    let beat = WriterRecord.heartbeat
    let task = Task.detached { [weak self] in
      var wait = beat
      while !Task.isCancelled {
        do { try await Task.sleep(for: wait) } catch { return }
        guard let self, !self.closed.withLock({ $0 }) else { return }
        let last = self.writerRecord.withLock { $0?.updatedAt } ?? .distantPast
        let since = Date().timeIntervalSince(last)
        let seconds = Double(beat.components.seconds)
        if since < seconds - 0.5 {
          wait = .milliseconds(Int64((seconds - since) * 1000))
          continue
        }
        wait = beat
        await self.publishWriter { _ in }
      }
    }
    heartbeatTask.withLock {
      $0?.cancel()
      $0 = task
    }
    if closed.withLock({ $0 }) { task.cancel() }
  }
}
