import FoundationEssentials

extension DrainPass {
  /// Does what an earlier visit left for the store, now.
  mutating func payOwed() async throws {
    guard let owed else { return }
    self.owed = nil
    let tally = self.tally
    try await store.run { db in
      try owed.work(db)
      db.oweDrainTally(tally)
    }
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
    if copy.drainStop.asked {
      // Stopped: nothing more goes. A write primed to go next is not marked sent.
      try await payOwed()
      if let primed, !primed.write.sent {
        let id = primed.write.id
        try await store.run { db in try db.unmarkSent(id) }
      }
      primed = nil
      throw QueueError.canceled(answered: report.answered)
    }
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
      count(.gone)
      return
    case .instanceChanged(let write):
      try await settle(
        write, Settlement(verdict: .blocked(reason: .instanceChanged, refusal: nil), now: now, clearsFailure: false))
      count(.instanceChanged)
      return
    case .held:
      count(.held)
      return
    case .refuse(let write, let reason):
      try await settle(write, .refusedUnsent(reason, now: now))
      count(.refused)
      return
    case .unmade(let write):
      try await countFailure(write, answer: nil, now: now)
      count(.unmade)
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
    // Every verdict the report counts is stored once the owed work is done.
    let tally = self.tally
    let ahead: Plan? = try await store.run { db in
      try owed?.work(db)
      db.oweDrainTally(tally)
      guard let next, DrainPass.independent(next, of: w) else { return nil }
      return try DrainPass.plan(
        next, copyInstance: copyInstance, setAside: setAside, origin: origin, blobFolder: blobFolder,
        marking: false, in: db)
    }
    if let owed { copy.hub.send(.answered(owed.verdict)) }
    let outcome: Outcome
    var answerText: String?
    var responseStatus: Int?
    var failureText: String?
    do {
      let response = try await inFlight.get().response()
      answerText = KeptAnswer.text(of: response.body)
      responseStatus = response.status
      noteWait(response.retryAfterSeconds)
      outcome = Outcome.classify(response, for: w)
      // The start of the answer's text is kept only where it tells what went wrong: an attempt
      // that succeeded keeps none (``WriteAttempt``), so it is not made for one.
      if !outcome.succeeded { failureText = response.failureText }
    } catch let e as TransportError {
      // No answer at all: the pass says the instance could not be reached, and how.
      let why = e.status == nil ? "the instance could not be reached: \(e.message)" : e.message
      outcome = .environmental(status: e.status, text: e.message, why: why, rateLimited: false)
    }
    let took = ContinuousClock.now - clock
    let attempt = WriteAttempt(
      outcome, at: sentAt, drain: drainNumber,
      milliseconds: Int(took.components.seconds) * 1000 + Int(took.components.attoseconds / 1_000_000_000_000_000),
      status: responseStatus, text: failureText)
    // The row the answer was about, read again: the copy holds what that read returns.
    let fresh = await readAfterAnswer(w, outcome)
    if case .success(let verdict, let row, let replayed) = outcome,
      case .send(let nextWrite, let nextRequest, let nextURL)? = ahead, !fresh.endsThePass
    {
      let settlement = Settlement(verdict: verdict, now: now, answer: answerText, replayed: replayed, row: row)
      let keeper = self.copy
      var listed = w
      // A create that landed on the row its natural key names is listed under that row.
      if w.kind == .createItem, let landed = row?.value["id"]?.stringValue { listed.itemId = landed }
      let settled = DrainPass.listing(listed, verdict, replayed: replayed)
      // Listed in the report now, sent to the streams once stored.
      machine.report.list(settled, keeping: keeping)
      self.owed = (
        { db in
          try DrainPass.store(w, settlement, in: db)
          try DrainPass.store(fresh, of: w, in: db)
          _ = try keeper.keepingHistory { try db.recordAttempt(w.id, attempt) }
          try db.markSentByCommit(nextWrite.id)
        }, settled
      )
      primed = (nextWrite, nextRequest, nextURL)
      // The machine counts it and answers .settle, which the owed work above does.
      tell(.answered(id: w.id, streakBefore: w.environmentalStreak, outcome))
      return
    }
    let (id, copy) = (w.id, self.copy)
    if case .redirect = outcome {
      // The instance took nothing and nothing followed the redirect: the write is left as it was
      // queued (not marked sent unless it already was, no attempt kept); the drain's record in
      // the history says why it ended.
      let wasSent = w.sent
      try await store.run { db in if !wasSent { try db.unmarkSent(id) } }
      try await take(outcome, for: w, answer: answerText, now: now)
      return
    }
    try await store.run { db in _ = try copy.keepingHistory { try db.recordAttempt(id, attempt) } }
    try await take(outcome, for: w, answer: answerText, now: now)
    try await store.run { db in try DrainPass.store(fresh, of: w, in: db) }
    if case .unreached(_, _, let why) = fresh { tell(.readBackFailed(why: why)) }
  }
}
