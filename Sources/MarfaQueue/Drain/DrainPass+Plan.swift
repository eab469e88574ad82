import FoundationEssentials

extension DrainPass {
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
  /// unanswered write only by answering it (its verdict), by moving it onto an answer (its
  /// version and body) or onto the row a natural key landed on (its item), so only those are read
  /// again, and the whole write only when it moved: no body parsed twice.
  static func plan(
    _ known: QueuedWrite, copyInstance: String?, setAside: Set<String>, origin: String, blobFolder: String,
    marking: Bool = true, in db: SQLite
  ) throws -> Plan {
    // Its verdict, base version and payload's checksum in one read (the row is the same below:
    // the plan runs in one trip to the store).
    guard let standing = try db.plannedStanding(of: known.id), !standing.answered else { return .gone }
    let w: QueuedWrite
    if standing.baseVersion == known.baseVersion && standing.itemId == known.itemId {
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
    if let damage = standing.damage { return .refuse(w, damage) }
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

  /// Whether the write may go now (``Readiness/of(follows:dependsOn:setAside:gate:)``), with
  /// what it follows and depends on read on the store's queue.
  static func readiness(_ w: QueuedWrite, setAside: Set<String>, in db: SQLite) throws -> Readiness {
    try Readiness.of(
      follows: w.follows, dependsOn: w.dependsOn, setAside: setAside, adds: [.addTag, .createEdge].contains(w.kind)
    ) { try db.gate($0) }
  }
}
