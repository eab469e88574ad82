import FoundationEssentials

/// One pass of the drain (contract section 5, with docs/rules.md).
struct DrainPass {
  let copy: WorkingCopy
  let store: Store
  let client: HTTPClient
  let server: Server
  /// The pass's decisions and counts (no I/O); this loop tells it what happened.
  var machine = DrainMachine()
  /// The writes the machine set aside, as the batch read them (for their report entries).
  var setAsideWrites: [String: QueuedWrite] = [:]

  /// The report so far: the machine's counts and the verdicts listed here. (The loop changes
  /// `machine.report` in place: through a get/set property each append would copy the list.)
  var report: DrainReport { machine.report }

  /// The writes set aside in this pass.
  var setAside: Set<String> { Set(machine.setAside.keys) }
  /// How many verdict entries the report keeps listed (nil: every one).
  var keeping: Int?
  /// The next write, already planned, marked sent (behind the last verdict) and ready to go.
  var primed: (write: QueuedWrite, request: WriteRequest, url: URL)?
  /// The store's work a visit leaves for the next, done while the next request is out (the
  /// verdict it reached and the primed write marked sent), and the verdict to tell the streams
  /// once it is stored.
  var owed: (work: @Sendable (SQLite) throws -> Void, verdict: DrainVerdict)?
  /// The drain's progress as last published in the writer's record (nil until the pass sends).
  var progress: WriterRecord.DrainProgress?
  /// When ``progress`` was last written.
  var lastPublished: ContinuousClock.Instant?
  /// The pass's number in the store's history of drains (``DrainRecord``); nil until begun, and
  /// for a pass that came to nothing or a store that keeps no history.
  var drainNumber: Int?

  init(copy: WorkingCopy, client: HTTPClient, server: Server, keeping: Int? = nil) {
    self.copy = copy
    self.keeping = keeping
    self.store = copy.store
    self.client = client
    self.server = server
  }

  /// Lists a write's outcome in the report and, when it has a verdict, tells the streams at once
  /// (a screen watching the drain moves as each answer lands, not at the end of the pass).
  mutating func record(_ verdict: DrainVerdict) {
    machine.report.list(verdict, keeping: keeping)
    if verdict.verdict != nil { copy.hub.send(.answered(verdict)) }
  }

  mutating func run() async throws -> DrainReport {
    machine.report.startedAt = Timestamp.now()
    // Preconditions: nothing sent, queue unchanged.
    let copyInstance = try await store.run { db in
      try db.requireFilled()
      return try db.meta(.instanceId)
    }
    try await store.run { db in try db.transaction(durable: false) { try db.unblockSelfClearing() } }

    let owed = try await store.run { try $0.owedReadBacks() }
    let pendingCount = try await store.run { try $0.unansweredCount() }
    if pendingCount == 0 && owed.isEmpty { return report }
    // A pass with something to do is kept in the history, begun now and ended by Queue.drain.
    let writer = copy.writerRecord.withLock { $0 }
    let copy = self.copy
    drainNumber = try await store.run { db in
      try copy.keepingHistory {
        try db.transaction(durable: false) { try db.beginDrainRecord(startedAt: Date(), writer: writer) }
      }
    }

    // Confirm the instance before anything is sent.
    do {
      let root = try await copy.readRoot()
      if let copyInstance, root.instanceId != copyInstance {
        try await store.run { db in try db.expireCopy(reason: "instance_changed") }
        throw QueueError.copyExpired(reason: "instance_changed")
      }
      // It answered: a record that says it was unreachable would be read beside this drain's
      // progress for as long as the pass runs (a write only when the record said otherwise).
      await copy.publishInstance(reachable: true, met: nil, nextTry: nil)
    } catch QueueError.network(let message) {
      machine.report.undelivered = pendingCount
      machine.report.unavailable = "the server could not say which instance it is, so nothing was sent: \(message)"
      return machine.report
    }

    // Owed read-backs go first; the first that cannot get through ends the pass before sending.
    for (id, kind, rowId) in owed {
      do {
        let read = try await copy.readRow(kind: kind, id: rowId)
        try await store.run { db in
          try db.transaction(durable: false) {
            if case .row(let row) = read { try db.takeRow(kind: kind, row) }
            if case .absent = read { try db.dropRow(kind: kind, id: rowId) }
            try db.settleReadBack(id)
          }
        }
      } catch let error as QueueError {
        // The network's failure, or an answer about another row (never taken): still owed.
        let message: String
        switch error {
        case .network(let m): message = m
        case .contractBroken(let what): message = what
        default: throw error
        }
        machine.report.undelivered = pendingCount
        machine.report.unavailable =
          "a read owed from an earlier drain could not be made, so nothing was sent: \(message)"
        return machine.report
      }
    }

    // The pass's bookkeeping commits in groups (docs/architecture.md, "The store's door"); Queue.drain commits the last one.
    try await store.run { try $0.beginGroup() }
    try await beginProgress(total: pendingCount)
    var lastSeq = 0
    batches: while true {
      let after = lastSeq
      let batch = try await store.run { try $0.unanswered(after: after, limit: 256) }
      if batch.isEmpty { break }
      for (i, (seq, w)) in batch.enumerated() {
        lastSeq = seq
        switch machine.event(.next) {
        case .stop: break batches
        case .checkReadiness: try await settleAfterEnd(w)
        default:
          try await visit(w, next: i + 1 < batch.count ? batch[i + 1].1 : nil, copyInstance: copyInstance)
        }
        try await publishProgress()
      }
    }

    // What the last visit left for the store is stored before the pass goes on.
    try await payOwed()

    // Set-aside writes whose streak reached the mark are blocked if others were answered.
    guard case .blockFailingAlone(let ids) = machine.event(.exhausted) else { return machine.report }
    for id in ids {
      guard let w = setAsideWrites[id] else { continue }
      let now = Timestamp.now()
      try await store.run { db in
        try db.transaction(durable: false) {
          try db.recordVerdict(
            id: id, verdict: .blocked(reason: .failingAlone, refusal: nil), sent: true, answer: nil, now: now)
        }
      }
      record(DrainPass.listing(w, .blocked(reason: .failingAlone, refusal: nil)))
    }
    return machine.report
  }

  /// What a visit does with a write, decided on the store's queue in one trip.
  enum Plan: Sendable {
    /// Settled or gone since the batch was read.
    case gone
    /// Queued against another instance than the copy's: not sent.
    case instanceChanged(QueuedWrite)
    /// Held behind another write (already marked waiting).
    case held(QueuedWrite)
    /// Refused by the drain itself, unsent, for this reason.
    case refuse(QueuedWrite, String)
    /// The request could not be made: counted.
    case unmade(QueuedWrite)
    /// To be sent as this request (already marked sent).
    case send(QueuedWrite, WriteRequest, URL)
  }

  /// Re-reads the write (an earlier answer in this pass may have settled or moved it), decides
  /// what to do with it and, when it goes, marks it sent: one trip to the store per write
  /// instead of three (re-read, readiness, mark).
  ///
  /// `known` is the write as the pass's batch read it. Until its turn, a pass changes an
  /// unanswered write only by answering it (its verdict) or by moving it onto a create's version
  /// (its version and body), so only those are read again, and the whole write only when it
  /// moved: no body parsed twice.
  static func plan(
    _ known: QueuedWrite, copyInstance: String?, setAside: Set<String>, origin: String, blobFolder: String,
    marking: Bool = true, in db: SQLite
  ) throws -> Plan {
    guard let standing = try db.standing(of: known.id), !standing.answered else { return .gone }
    let w: QueuedWrite
    if standing.baseVersion == known.baseVersion {
      w = known
    } else {
      guard let moved = try db.write(id: known.id), moved.verdict == nil else { return .gone }
      w = moved
    }
    // A kind this build does not know is never sent, as that kind or any other.
    if let unknown = w.unknownKindRefusal { return .refuse(w, unknown) }
    // Readiness: held, refused with its dependency, or free.
    switch try readiness(w, setAside: setAside, in: db) {
    case .held:
      if marking { try db.markWaiting(w.id) }
      return .held(w)
    case .refusedWith(let reason):
      return .refuse(w, reason)
    case .free:
      break
    }
    // A write queued against another instance than the copy's is not sent (checked when it
    // would go: a write still held behind another stays held).
    if let instance = w.instanceId, let copyInstance, instance != copyInstance { return .instanceChanged(w) }
    // Bytes changed in the file since the write was queued are never sent.
    if let damage = try db.payloadDamage(of: w.id) { return .refuse(w, damage) }
    if w.kind == .deleteItem, (w.baseVersion ?? 0) <= 0 {
      return .refuse(w, "the delete has no confirmed server version to remove; read the item before deleting it")
    }
    let request: WriteRequest
    do {
      request = try WriteRequest(w, blobFolder: blobFolder)
    } catch let missing as WriteRequest.BytesMissing {
      return .refuse(w, "the bytes of \(missing.hash) are no longer held beside the working copy")
    } catch let damaged as WriteRequest.BytesDamaged {
      return .refuse(w, WriteRequest.damagedReason(damaged))
    } catch {
      return .unmade(w)
    }
    guard let url = request.url(origin: origin) else { return .unmade(w) }
    if marking { try db.markSent(w.id) }
    return .send(w, request, url)
  }

  /// Whether `later` may be planned and sent before `earlier` is settled: it neither follows
  /// nor depends on it.
  static func independent(_ later: QueuedWrite, of earlier: QueuedWrite) -> Bool {
    later.follows != earlier.id && !later.dependsOn.contains(earlier.id)
  }

  /// Does what an earlier visit left for the store, now.
  mutating func payOwed() async throws {
    guard let owed else { return }
    self.owed = nil
    try await store.run { try owed.work($0) }
    copy.hub.send(.answered(owed.verdict))
  }

  /// Decides, sends and settles one unanswered write.
  ///
  /// The store's work happens on the drain's own thread while the request is out: what the last
  /// visit owes (its verdict, this write marked sent), then the next write's plan, read without
  /// marking anything. When this write is accepted, merged or conflicted and the next neither
  /// follows nor depends on it, the visit ends at once: the next write goes out first, and this
  /// verdict is stored while it is out.
  mutating func visit(_ w0: QueuedWrite, next: QueuedWrite?, copyInstance: String?) async throws {
    let setAside = self.setAside
    let origin = server.url
    let blobFolder = store.blobFolder
    let plan: Plan
    if let primed, primed.write.id == w0.id {
      plan = .send(primed.write, primed.request, primed.url)
    } else {
      try await payOwed()
      plan = try await store.run { db in
        try DrainPass.plan(
          w0, copyInstance: copyInstance, setAside: setAside, origin: origin, blobFolder: blobFolder, in: db)
      }
    }
    primed = nil
    let now = Timestamp.now()
    let w: QueuedWrite
    let request: WriteRequest
    let url: URL
    switch plan {
    case .gone:
      _ = machine.event(.unsent(.gone))
      return
    case .instanceChanged(let write):
      try await settle(write, .blocked(reason: .instanceChanged, refusal: nil), now: now, clearFailure: false)
      _ = machine.event(.unsent(.instanceChanged))
      return
    case .held:
      _ = machine.event(.unsent(.held))
      return
    case .refuse(let write, let reason):
      try await settle(write, .refused(Refusal(reason: reason)), now: now, clearFailure: true, sent: false)
      _ = machine.event(.unsent(.refused))
      return
    case .unmade(let write):
      try await countFailure(write, answer: nil, now: now)
      _ = machine.event(.unsent(.unmade))
      return
    case .send(let write, let r, let u):
      (w, request, url) = (write, r, u)
    }

    var headers = ["Content-Type": request.contentType]
    if request.sendsKey { headers["Idempotency-Key"] = w.idempotencyKey }
    let sentAt = Date()
    let clock = ContinuousClock.now
    let inFlight = Result {
      try client.start(
        request.method, url, headers: headers, body: request.body, bodyFile: request.bodyFile, key: server.key)
    }
    // While the request is out: the store's work owed from the last visit, and the next plan.
    let owed = self.owed
    self.owed = nil
    let ahead: Plan? = try await store.run { db in
      try owed?.work(db)
      guard let next, DrainPass.independent(next, of: w) else { return nil }
      return try DrainPass.plan(
        next, copyInstance: copyInstance, setAside: setAside, origin: origin, blobFolder: blobFolder,
        marking: false, in: db)
    }
    if let owed { copy.hub.send(.answered(owed.verdict)) }
    let outcome: Outcome
    var answerText: String?
    var answerStatus: Int?
    var failureText: String?
    do {
      let answer = try await inFlight.get().answer()
      answerText = KeptAnswer.text(of: answer.body)
      answerStatus = answer.status
      failureText = answer.failureText
      if let seconds = answer.retryAfterSeconds {
        machine.report.retryAfterSeconds = min(
          DrainReport.retryAfterCap, max(machine.report.retryAfterSeconds ?? 0, seconds))
      }
      outcome = Outcome.classify(answer, for: w)
    } catch let e as TransportError {
      outcome = .environmental(status: e.status, text: e.message, why: e.message, rateLimited: false)
    }
    let took = ContinuousClock.now - clock
    let attempt = WriteAttempt(
      outcome, at: sentAt, drain: drainNumber,
      milliseconds: Int(took.components.seconds) * 1000 + Int(took.components.attoseconds / 1_000_000_000_000_000),
      status: answerStatus, text: failureText)
    if case .success(let verdict, let row, let replayed) = outcome,
      case .send(let nextWrite, let nextRequest, let nextURL)? = ahead
    {
      let answer = answerText
      let keeper = self.copy
      let settled = DrainPass.listing(w, verdict, replayed: replayed)
      // Listed in the report now, told to the streams once stored.
      machine.report.list(settled, keeping: keeping)
      self.owed = (
        { db in
          try DrainPass.store(
            w, verdict, now: now, clearFailure: true, sent: true, answer: answer, replayed: replayed, row: row, in: db)
          _ = try keeper.keepingHistory { try db.recordAttempt(w.id, attempt) }
          try db.markSent(nextWrite.id)
        }, settled
      )
      primed = (nextWrite, nextRequest, nextURL)
      // The machine counts it and answers .settle, which the owed work above does.
      _ = machine.event(.answered(id: w.id, streakBefore: w.environmentalStreak, outcome))
      return
    }
    let (id, copy) = (w.id, self.copy)
    try await store.run { db in _ = try copy.keepingHistory { try db.recordAttempt(id, attempt) } }
    try await take(outcome, for: w, answer: answerText, now: now)
  }

  /// A write the pass comes to after it ended early (an environmental failure): readiness
  /// first, as for any write (contract 5): one held behind another is counted `held` and stays
  /// `waiting` (the seed: "a write held behind another that has no answer yet has `waiting` set
  /// to `true`"), one whose dependency was refused or dead is refused unsent, and only the
  /// rest are `undelivered`.
  mutating func settleAfterEnd(_ w: QueuedWrite) async throws {
    try await payOwed()
    let setAside = self.setAside
    let readiness = try await store.run { db -> Readiness? in
      guard let standing = try db.standing(of: w.id), !standing.answered else { return nil }
      let readiness = try DrainPass.readiness(w, setAside: setAside, in: db)
      if case .held = readiness { try db.markWaiting(w.id) }
      return readiness
    }
    switch readiness {
    case nil:
      _ = machine.event(.unsent(.gone))
    case .held:
      _ = machine.event(.unsent(.held))
    case .refusedWith(let reason):
      try await settle(w, .refused(Refusal(reason: reason)), now: Timestamp.now(), clearFailure: true, sent: false)
      _ = machine.event(.unsent(.refused))
    case .free:
      _ = machine.event(.unsent(.undelivered))
    }
  }

  /// Whether the write may go now (``Readiness/of(follows:dependsOn:setAside:gate:)``), with
  /// what it follows and depends on read on the store's queue.
  static func readiness(_ w: QueuedWrite, setAside: Set<String>, in db: SQLite) throws -> Readiness {
    try Readiness.of(follows: w.follows, dependsOn: w.dependsOn, setAside: setAside) { try db.gate($0) }
  }

  /// Stores a verdict reached in this pass and lists it in the machine.report.
  mutating func settle(
    _ w: QueuedWrite, _ verdict: Verdict, now: String, clearFailure: Bool, sent: Bool = true, answer: String? = nil,
    replayed: Bool = false, row: AnsweredRow? = nil
  ) async throws {
    try await store.run { db in
      try DrainPass.store(
        w, verdict, now: now, clearFailure: clearFailure, sent: sent, answer: answer, replayed: replayed, row: row,
        in: db)
    }
    listSettled(w, verdict, replayed: replayed)
  }

  /// Stores a verdict: the write's row, its failure cleared, the row the answer carried, and the
  /// writes queued at version 0 behind an answered create moved onto its version.
  static func store(
    _ w: QueuedWrite, _ verdict: Verdict, now: String, clearFailure: Bool, sent: Bool, answer: String?,
    replayed: Bool, row: AnsweredRow?, in db: SQLite
  ) throws {
    try db.transaction(durable: false) {
      try db.recordVerdict(
        id: w.id, verdict: verdict, sent: sent, answer: answer, now: now, replayed: replayed, clearFailure: clearFailure
      )
      if let row {
        try db.takeRow(kind: w.kind.rowKind, row.value, text: row.text)
        if w.kind == .createItem, let id = row.value["id"]?.stringValue, let version = row.value["version"]?.intValue {
          try db.moveOntoAnsweredCreate(item: id, version: version)
        }
      }
    }
  }

  /// Lists a settled write in the report (and tells the streams).
  mutating func listSettled(_ w: QueuedWrite, _ verdict: Verdict, replayed: Bool) {
    record(DrainPass.listing(w, verdict, replayed: replayed))
  }

  /// A write as the report lists it, with the verdict it reached in this pass (nil: none yet)
  /// and its refusals (the write's own unless given; a dead write's are the ceiling).
  static func listing(_ w: QueuedWrite, _ verdict: Verdict?, refusals: Int? = nil, replayed: Bool = false)
    -> DrainVerdict
  {
    var conflicted: String?
    if case .conflicted(let sibling, _)? = verdict { conflicted = sibling }
    return DrainVerdict(
      id: w.id, kind: w.kind, itemId: w.itemId, edgeId: w.edgeId, verdict: verdict,
      refusals: refusals ?? (verdict == .dead ? QueueLimits.ceiling : w.refusals), replayed: replayed,
      conflictedCopyId: conflicted, unknownKind: w.unknownKind)
  }

  /// Counts one refusal against the ceiling.
  mutating func countFailure(_ w: QueuedWrite, answer: String?, now: String) async throws {
    let n = try await store.run { db in
      try db.transaction(durable: false) {
        try db.clearFailure(w.id)
        return try db.countRefusal(w.id, answer: answer, now: now)
      }
    }
    record(DrainPass.listing(w, n >= QueueLimits.ceiling ? .dead : nil, refusals: n))
  }

  /// Reads the outcome into the store and the machine.report.
  mutating func take(_ outcome: Outcome, for w: QueuedWrite, answer: String?, now: String) async throws {
    switch machine.event(.answered(id: w.id, streakBefore: w.environmentalStreak, outcome)) {
    case .settle(let verdict, let row, let replayed):
      try await settle(w, verdict, now: now, clearFailure: true, answer: answer, replayed: replayed, row: row)
    case .settleAndReadBack(let refusal):
      try await settle(w, .refused(refusal), now: now, clearFailure: true, answer: answer)
      try await readBack(w)
    case .blockSource(let source, let refusal):
      try await settle(
        w, .blocked(reason: .credentialRefused, refusal: refusal), now: now, clearFailure: true, answer: answer)
      let others = try await store.run { db in
        try db.transaction(durable: false) { try db.blockSource(source, refusal: refusal) }
      }
      if !machine.report.unclaimedSources.contains(source) { machine.report.unclaimedSources.append(source) }
      for id in others {
        record(DrainVerdict(id: id, kind: .createItem, verdict: .blocked(reason: .credentialRefused, refusal: refusal)))
      }
    case .park(let refusal):
      try await store.run { db in try db.clearFailure(w.id) }
      let parked = try await store.run { db in
        try db.transaction(durable: false) {
          try db.keepAnswer(answer, on: w.id)
          return try db.parkAll(refusal: refusal)
        }
      }
      _ = machine.event(
        .keyRefused(
          why:
            "the instance refused the key (401 \(refusal.code ?? "unauthorized")): \(parked) row(s) parked until a key works"
        ))
      record(DrainPass.listing(w, .blocked(reason: .credentialRefused, refusal: refusal)))
    case .countRefusal:
      try await countFailure(w, answer: answer, now: now)
    case .recordFailure(let status, let text, let addToStreak):
      try await store.run { db in try db.recordEnvironmental(w.id, status: status, text: text, addToStreak: addToStreak)
      }
      // The machine has set it aside (it failed in the last drain too) or ended the pass.
      if machine.setAside[w.id] != nil { setAsideWrites[w.id] = w }
      record(DrainPass.listing(w, nil))
    case .fail(let error, let keepAnswer):
      if keepAnswer {
        try await store.run { db in
          try db.keepAnswer(answer, on: w.id)
        }
      }
      throw error
    case .none, .send, .checkReadiness, .stop, .blockFailingAlone:
      break
    }
  }

  /// Puts a refused write's row back as the instance holds it; owed when the read fails.
  mutating func readBack(_ w: QueuedWrite) async throws {
    let kind = w.kind.rowKind
    guard let rowId = w.kind.rowId(item: w.itemId, edge: w.edgeId), w.kind != .uploadBlob else { return }
    do {
      let read = try await copy.readRow(kind: kind, id: rowId)
      try await store.run { db in
        switch read {
        case .row(let row): try db.takeRow(kind: kind, row)
        case .absent: try db.dropRow(kind: kind, id: rowId)
        }
      }
    } catch QueueError.network(let message) {
      try await store.run { db in
        try db.oweReadBack(w.id, kind: kind, rowId: rowId)
      }
      _ = machine.event(.readBackFailed(why: "a refused write's row could not be read back: \(message)"))
    } catch {
      // Another refusal of the read, or an answer about another row: the row stays as the copy
      // has it.
    }
  }
}
