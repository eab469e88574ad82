extension DrainPass {
  /// Stores a verdict reached in this pass and lists it in the report (a create that landed on
  /// the row its natural key names is listed under that row).
  mutating func settle(_ w: QueuedWrite, _ settled: Settlement, listedOn row: String? = nil) async throws {
    try await store.run { db in try DrainPass.store(w, settled, in: db) }
    var listed = w
    if w.kind == .createItem, let landed = settled.row?.value["id"]?.stringValue ?? row { listed.itemId = landed }
    listSettled(listed, settled.verdict, replayed: settled.replayed)
  }

  /// Stores a verdict: the write's row, its failure cleared, the row the answer carried, and the
  /// edits queued behind it moved onto that row's version where they may go there.
  static func store(_ w: QueuedWrite, _ settled: Settlement, in db: SQLite) throws {
    try db.transaction(durable: false) {
      try db.recordVerdict(
        id: w.id, verdict: settled.verdict, sent: settled.sent, answer: settled.answer, now: settled.now,
        replayed: settled.replayed, clearFailure: settled.clearsFailure)
      // An edit refused unsent no longer shows on the row of this device's own create.
      if !settled.sent, let rowId = w.kind.rowId(item: w.itemId, edge: w.edgeId) {
        try db.relayOwnCreate(kind: w.kind.rowKind, id: rowId)
      }
      if let row = settled.row {
        var w = w
        // A create that landed under another id than the one queued (a natural key): it and the
        // writes queued on its placeholder name the row it landed on from now on.
        if w.kind == .createItem, let id = row.value["id"]?.stringValue, id != w.itemId {
          try db.land(w, on: id)
          w.itemId = id
        }
        try db.takeRow(kind: w.kind.rowKind, row.value, text: row.text)
        // The edits behind it move onto its answer where it holds what they read
        // (``SQLite/moveOntoAnswer(_:row:replayed:)``); behind a conflicted one nothing moves.
        switch settled.verdict {
        case .accepted, .merged:
          if [.createItem, .updateItem, .createEdge, .updateEdge].contains(w.kind) {
            try db.moveOntoAnswer(w, row: row.value, replayed: settled.replayed)
          }
        default: break
        }
      }
    }
    // Stored: the verdict marked it sent (and not waiting), as the mark owed to it would have.
    if settled.sent { db.sentMarkPaid(w.id) }
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
      try await settle(w, Settlement(verdict: verdict, now: now, answer: answer, replayed: replayed, row: row))
    case .settleAndReadBack(let refusal):
      // A create refused onto the row its natural key names (another device's): listed under
      // that row, and the copy moves onto it once a read finds it.
      if let theirs = DrainPass.landingRow(of: w, answer: answer) {
        try await settle(w, Settlement(verdict: .refused(refusal), now: now, answer: answer), listedOn: theirs)
        if case .unreached(let why) = try await land(w, on: theirs) {
          tell(.readBackFailed(why: "the row a refused create's natural key names could not be read: \(why)"))
        }
        return
      }
      try await settle(w, Settlement(verdict: .refused(refusal), now: now, answer: answer))
      try await readBack(w)
    case .blockSource(let source, let refusal):
      try await settle(
        w, Settlement(verdict: .blocked(reason: .credentialRefused, refusal: refusal), now: now, answer: answer))
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
      tell(
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
    case .fail(var error, let keepAnswer):
      if case .redirected(let status, let location, _) = error {
        error = .redirected(status: status, location: location, instance: copy.server?.url ?? "the instance")
      }
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
}
