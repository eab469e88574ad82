import FoundationEssentials

extension Queue {
  /// Sends the queue once, in order, and reads every answer into a verdict.
  ///
  /// Drains in one process run one at a time; a reader's drain is refused `reading_handle`.
  /// The report lists a verdict entry for every write the pass came to (the seed's
  /// `DrainReport`); a caller that must not hold one per write uses ``drain(keepingVerdicts:)``.
  public func drain() async throws -> DrainReport {
    try await drain(keepingVerdicts: nil)
  }

  /// Ends the running drain (or the next to start) as soon as it can: a write whose request is
  /// out keeps its answer, nothing more is sent, and a read of the root still under way is given
  /// up at once. That drain throws ``QueueError/canceled(answered:)``, what it stored kept. Safe
  /// from any thread (a signal handler's queue).
  public func stopDrain() {
    (try? copy)?.drainStop.ask(because: nil)
  }

  /// Stops the running drain as ``stopDrain()`` does, saying who asked ("SIGINT (Ctrl-C)", "the
  /// screen's stop"): the drain's history row keeps it as why it was interrupted.
  package func stopDrain(because reason: String) {
    (try? copy)?.drainStop.ask(because: reason)
  }

  /// Drains as ``drain()`` does, the report listing only the last `limit` verdict entries
  /// (nil: every one) and counting the earlier ones in ``DrainReport/verdictsOmitted``: the
  /// pass's memory does not grow with the queue. The store keeps the last
  /// ``DrainReport/keptVerdicts`` whatever `limit` is.
  public func drain(keepingVerdicts limit: Int?) async throws -> DrainReport {
    let copy = try self.copy
    // The pass never holds more than the store keeps, unless the caller asked for every entry.
    let keeping = limit.map { max($0, DrainReport.keptVerdicts) }
    try copy.requireWriter()
    let (client, server) = try copy.client()
    defer { copy.drainStop.reset() }
    return try await copy.drainGate.run {
      // A writer whose store file was deleted or replaced stops: its verdicts would go into a
      // file no other process sees, and a second writer may already be draining the new one.
      try store.requireSameFile()
      var pass = DrainPass(copy: copy, client: client, server: server, keeping: keeping)
      let report: DrainReport
      do {
        // The pass runs on its client's thread: an answer wakes that thread alone, the next
        // request goes from it at once, and the store's queue is entered in place.
        report = try await withTaskExecutorPreference(client.executor) { try await pass.run() }
      } catch {
        // What the pass stored is kept if it can be; the pass's own error is the one thrown.
        let ended = pass.endedProgressText(stopped: false)
        try? await store.endGroup()
        if let ended { try? await store.run { db in try db.setMeta(.writer, ended) } }
        if let n = pass.drainNumber {
          let soFar = pass.report
          let end: (DrainRecord.Ending, String)
          if case QueueError.canceled = error {
            end = (.interrupted, copy.drainStop.reason ?? "a stop was asked")
          } else {
            end = (.failed, (error as? QueueError)?.message ?? String(describing: error))
          }
          try? await store.run { db in
            try db.transaction(durable: false) { try db.endDrainRecord(n, soFar, endedAt: Date(), end: end) }
          }
        }
        // Whatever it stored (a write marked sent, the copy expired by an instance switch, the
        // history row), the screens re-read: a failed drain leaves none stale.
        announceDrained()
        if case QueueError.canceled = error { throw QueueError.canceled(answered: pass.report.answered) }
        throw error
      }
      // A group that could not be committed, at any point of the pass, lost verdicts the report
      // lists: the drain ends with that failure (storage_full on a full disk), the report
      // neither returned nor saved as the last drain.
      do {
        try await store.endGroup()
      } catch {
        if let n = pass.drainNumber {
          let why = (error as? QueueError)?.message ?? String(describing: error)
          try? await store.run { db in
            try db.transaction(durable: false) {
              try db.endDrainRecord(n, report, endedAt: Date(), end: (.failed, why))
            }
          }
        }
        announceDrained()
        throw error
      }
      var done = report
      done.endedAt = Timestamp.now()
      // The store keeps its own bound (the last ``DrainReport/keptVerdicts``), the caller its own.
      let kept = done
      if let limit { done.trim(to: limit) }
      let ended = pass.endedProgressText(stopped: done.stopped != nil, report: done)
      let number = pass.drainNumber
      try await store.run { db in
        try db.transaction(durable: false) {
          // Bounded: the summary and the last entries (docs/rules.md "The last drain's report").
          try db.keepLastDrain(kept)
          if let number { try db.endDrainRecord(number, kept, endedAt: Date()) }
          if let ended { try db.setMeta(.writer, ended) }
        }
      }
      announceDrained()
      if let stopped = done.stopped { hub.send(.stopped(stopped)) }
      return done
    }
  }

  /// Tells the streams the pass is over (each verdict was sent as it landed).
  func announceDrained() {
    hub.send(.refreshed(.drained))
  }

  /// Takes a write blocked `ancestorUnavailable`, `conflictUnresolved`, `failingAlone` or
  /// `instanceChanged` out of the queue, after reading its row from the instance.
  ///
  /// - Returns: false for any other write, and when the copy moved during the read (ask again).
  /// - Throws: ``QueueError/notFound(id:)`` for an unknown id; a network or server error when
  ///   the row cannot be read, changing nothing.
  public func withdraw(_ id: String) async throws -> Bool {
    let copy = try self.copy
    try copy.requireWriter()
    let before = try await write(id)
    guard let reason = before.verdict?.blockedReason, reason.withdrawable else { return false }
    let kind = before.kind.rowKind
    let rowId = before.kind.rowId(item: before.itemId, edge: before.edgeId)
    let rowBefore = try await store.run { db in try rowId.flatMap { try db.row(kind: kind, id: $0)?.version } }
    var read: WorkingCopy.RowRead?
    if let rowId, before.kind != .uploadBlob {
      read = try await copy.readRow(kind: kind, id: rowId)
    }
    let readResult = read
    let by = departingBy
    let taken = try await store.run { db in
      try db.transaction(durable: true) { () -> Bool in
        guard let now = try db.write(id: id), now.verdict == before.verdict, now.idempotencyKey == before.idempotencyKey
        else { return false }
        let rowNow = try rowId.flatMap { try db.row(kind: kind, id: $0)?.version }
        if rowNow != rowBefore { return false }
        try db.deleteWrite(id, as: .withdrawn, by: by)
        if let rowId {
          switch readResult {
          case .row(let row): try db.takeRow(kind: kind, row)
          case .absent: try db.dropRow(kind: kind, id: rowId)
          case nil: break
          }
        }
        try db.refuseBehindWithdrawn(id, kind: before.kind, now: Timestamp.now())
        try db.pruneArchive(nowMs: SQLite.nowMs())
        return true
      }
    }
    if taken {
      hub.send(.refreshed(.forgotten))
      hub.send(.refreshed(.withdrawn))
    }
    return taken
  }
}
