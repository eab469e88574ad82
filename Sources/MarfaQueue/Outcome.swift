/// How the drain reads one answer (contract 3.3, in its order of checks).
enum Outcome: Sendable {
  /// A success verdict, with the row the answer carried (if any) and whether it was replayed.
  case success(Verdict, row: AnsweredRow?, replayed: Bool)
  /// The instance refused the write.
  case refused(Refusal)
  /// The write is blocked; the pass goes on.
  case blocked(BlockedReason, Refusal?)
  /// A create naming a source the key does not claim.
  case unclaimedSource(String, Refusal)
  /// A 401 naming the contract: park the queue and stop.
  case credentialStop(Refusal)
  /// Counted against the ceiling; the pass goes on.
  case counted(String)
  /// No answer, or one the network gave: unanswered and uncounted.
  case environmental(status: Int?, text: String?, why: String, rateLimited: Bool)
  /// The answer named another contract.
  case contractMismatch(served: String?)
  /// A redirect, never followed.
  case redirect(status: Int, location: String?)

  /// Reads an answer to `write`.
  static func classify(_ a: HTTPAnswer, for write: QueuedWrite) -> Outcome {
    let status = a.status
    let success = (200..<300).contains(status)
    if !success && !a.namesAContract {
      return .environmental(
        status: status, text: a.failureText,
        why: "an answer \(status) named no contract (a proxy or gateway), so it was taken as the network's",
        rateLimited: HTTPStatus.isRateLimit(status))
    }
    if !a.namesOurContract {
      return .contractMismatch(served: a.header("X-Marfa-Contract"))
    }
    if HTTPStatus.isEnvironmental(status) {
      return .environmental(
        status: status, text: a.failureText, why: "the instance answered \(status)",
        rateLimited: HTTPStatus.isRateLimit(status))
    }
    if (300..<400).contains(status) {
      return .redirect(status: status, location: a.header("Location"))
    }
    let parsed = JSONValue.parseKeepingMembers(a.body)
    let envelope = parsed?.value
    let code = envelope?["error"]?["code"]?.stringValue
    let details = envelope?["error"]?["details"]
    if status == 401 {
      return .credentialStop(Refusal(reason: code ?? "unauthorized", envelope: envelope))
    }
    if status == 403, let grant = details?["grant"], MissingGrant(wireJSON: grant) != nil {
      return .blocked(.credentialRefused, Refusal(reason: code ?? "forbidden", envelope: envelope))
    }
    if status == 403, write.kind == .createItem, code == "forbidden", let d = details?.objectValue, d.count == 1,
      d[0].0 == "source", let source = d[0].1.stringValue, source == write.body["source"]?.stringValue
    {
      return .unclaimedSource(source, Refusal(reason: "forbidden", envelope: envelope))
    }
    if status == 422 && code == "idempotency_key_reused" {
      return .blocked(.keySpent, Refusal(reason: "idempotency_key_reused", envelope: envelope))
    }
    if status == 409 && (code == "ancestor_unavailable" || code == "version_conflict") {
      let refusal = Refusal(reason: code!, envelope: envelope)
      if write.kind == .createItem, let current = envelope?["current"]?["id"]?.stringValue, current != write.itemId {
        return .refused(refusal)
      }
      return .blocked(code == "version_conflict" ? .conflictUnresolved : .ancestorUnavailable, refusal)
    }
    if status == 409 && code == "idempotency_key_in_flight" {
      return .counted("the instance reported the key in flight")
    }
    if (400..<500).contains(status) {
      return .refused(Refusal(reason: code ?? "unknown", envelope: envelope))
    }
    if !success {
      return .counted("the instance answered \(status)")
    }
    return readSuccess(a, json: envelope, members: parsed?.members ?? [:], for: write)
  }

  /// Reads a 2xx by the door's own shape; an unreadable one is counted.
  static func readSuccess(
    _ a: HTTPAnswer, json parsed: JSONValue?, members: [String: Range<Int>], for w: QueuedWrite
  ) -> Outcome {
    guard let json = parsed, case .object = json else { return .counted("the answer could not be read") }
    /// The member as the instance sent it.
    func carried(_ name: String, _ value: JSONValue) -> AnsweredRow {
      AnsweredRow(value: value, text: members[name].map { String(decoding: a.body[$0], as: UTF8.self) } ?? value.text)
    }
    let replayed = a.header("Idempotency-Replayed")?.lowercased() == "true" || json["acknowledged"]?.boolValue == true
    var row: AnsweredRow?
    switch w.kind {
    case .createItem, .updateItem, .restoreItem, .transitionItem:
      guard let item = json["item"], item["id"]?.stringValue != nil else {
        return .counted("the answer carried no item")
      }
      row = carried("item", item)
      if w.kind == .createItem, json["acknowledged"]?.boolValue == true, item["state"]?.stringValue == "trashed" {
        return .refused(Refusal(reason: "trashed", trashed: true))
      }
    case .deleteItem, .deleteEdge:
      guard json["ok"]?.boolValue == true || json["edge"] != nil || json["item"] != nil else {
        return .counted("the answer was not {\"ok\":true}")
      }
    case .createEdge, .updateEdge:
      guard let edge = json["edge"], edge["id"]?.stringValue != nil else {
        return .counted("the answer carried no edge")
      }
      row = carried("edge", edge)
    case .replaceMetadata, .mergeMetadata, .addTag, .removeTag:
      guard case .object = json["metadata"] ?? .null else { return .counted("the answer carried no metadata") }
    case .writeExtension, .deleteExtension:
      guard case .object = json["extensions"] ?? json["metadata"]?["extensions"] ?? .null else {
        return .counted("the answer carried no extensions")
      }
    case .uploadBlob:
      guard let hash = json["hash"]?.stringValue else { return .counted("the answer carried no hash") }
      guard hash == w.blob else { return .counted("the answer's hash is not the hash of the bytes sent") }
    }
    if let resolution = json["conflict_resolution"], case .object = resolution {
      let fields = resolution["fields"]?.arrayValue?.compactMap(\.stringValue) ?? []
      if let sibling = resolution["conflicted_copy_id"]?.stringValue {
        return .success(.conflicted(siblingId: sibling, fields: fields), row: row, replayed: replayed)
      }
      return .success(.merged(fields: fields), row: row, replayed: replayed)
    }
    return .success(.accepted, row: row, replayed: replayed)
  }
}
