extension DrainPass {
  /// The row a refused create's natural key names, where the refusal names one: a create carrying
  /// a natural key, refused `ancestor_unavailable` or `version_conflict` with a `current` row
  /// that is not the one the copy shows it as (another device's create landed under the key).
  static func landingRow(of w: QueuedWrite, answer: String?) -> String? {
    guard w.kind == .createItem, w.body["source"]?.stringValue != nil, w.body["source_id"]?.stringValue != nil,
      let envelope = answer.flatMap(JSONValue.parse),
      let code = envelope["error"]?["code"]?.stringValue, code == "ancestor_unavailable" || code == "version_conflict",
      let named = envelope["current"]?["id"]?.stringValue, named != w.itemId
    else { return nil }
    return named
  }

  /// How a read of the row a refused create's natural key names ended.
  enum LandingRead {
    /// Read: the copy moved onto it.
    case landed
    /// The instance holds no such row the key reads (yet): the read stays owed.
    case absent
    /// The read could not be made (the network, a busy instance): it stays owed; why.
    case unreached(String)
  }

  /// Reads the row `theirs` a refused create's natural key names and moves the copy onto it: the
  /// row as read enters the copy, the create and every write queued on the row it showed name
  /// that row from now on (``SQLite/land(_:on:)``), and the row shown here leaves the copy. What
  /// waits on the create then goes where it only adds to that row and is refused where it would
  /// change it (``Readiness/Landing``). Where the row cannot be read, the read is owed to the next
  /// drain and the create's row stays as the copy shows it.
  ///
  /// - Throws: ``QueueError/copyExpired(reason:)`` when the instance refuses the key for the read.
  mutating func land(_ w: QueuedWrite, on theirs: String) async throws -> LandingRead {
    var wait: Int?
    defer { noteWait(wait) }
    let read: WorkingCopy.RowRead
    do {
      read = try await copy.readRow(kind: .item, id: theirs, retryAfter: &wait)
    } catch QueueError.network(let message) {
      try await store.run { db in try db.oweLanding(w.id, on: theirs) }
      return .unreached(message)
    } catch QueueError.server(let status, _, _) where status == 401 {
      throw QueueError.copyExpired(reason: "the key was refused reading the row a create's natural key names")
    }
    switch read {
    case .absent:
      try await store.run { db in try db.oweLanding(w.id, on: theirs) }
      return .absent
    case .row(let row):
      try await store.run { db in
        try db.transaction(durable: false) {
          try db.takeRow(kind: .item, row)
          try db.land(w, on: theirs)
          try db.settleReadBack(w.id)
        }
      }
      return .landed
    }
  }

  /// Makes the landing reads earlier drains owe, before anything is sent. False when one cannot
  /// get through: that ends the pass before sending, the `pending` writes undelivered. A row
  /// still absent keeps its read owed and the pass goes on.
  mutating func landOwed(pending: Int) async throws -> Bool {
    let owed = try await store.run { db in try db.owedLandings() }
    for (id, theirs) in owed {
      guard let w = try await store.run({ db in try db.write(id: id) }) else {
        try await store.run { db in try db.settleReadBack(id) }
        continue
      }
      if case .unreached(let message) = try await land(w, on: theirs) {
        machine.report.undelivered = pending
        machine.report.unavailable =
          "the row a refused create's natural key names could not be read, so nothing was sent: \(message)"
        return false
      }
    }
    return true
  }
}
