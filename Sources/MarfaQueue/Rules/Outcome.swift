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

  /// Whether the answer gave the write a success verdict.
  var succeeded: Bool {
    if case .success = self { return true }
    return false
  }

  /// Reads an answer to `write`.
  static func classify(_ a: HTTPResponse, for write: QueuedWrite) -> Outcome {
    let status = a.status
    let success = (200..<300).contains(status)
    // A redirect is refused whoever sent it and whatever contract it names: following it would
    // send the write, and the key, where the person never pointed verdicts.
    if (300..<400).contains(status) {
      return .redirect(status: status, location: a.header("Location"))
    }
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
    let parsed = JSONValue.parseKeepingMembers(a.body, replacingLoneSurrogates: true)
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

  /// Reads a 2xx by the endpoint's own shape, about the write's own row.
  ///
  /// A 2xx this drain cannot take as the write's answer (not JSON, not the endpoint's shape, a name
  /// given twice, another row's id or another blob's hash) is counted toward `dead`, as the
  /// contract counts it (``counted(_:)``): the write stays unanswered under its key, nothing of the
  /// answer enters the copy, the answer is kept, and the pass goes on.
  static func readSuccess(
    _ a: HTTPResponse, json parsed: JSONValue?, members: [String: Range<Int>], for w: QueuedWrite
  ) -> Outcome {
    /// A 2xx that cannot be the write's answer, and why.
    func unusable(_ why: String) -> Outcome {
      .counted(
        "the instance's \(a.status) answer \(why); nothing of it was taken, and the write goes again under its key")
    }
    guard let json = parsed else { return unusable("could not be read (it is not JSON)") }
    guard case .object = json else { return unusable("could not be read (it is not a JSON object)") }
    if let name = json.repeatedMemberName() {
      return unusable("is ambiguous: it gives the member \(Self.quoted(name)) twice")
    }
    /// The member as the instance sent it.
    func carried(_ name: String, _ value: JSONValue) -> AnsweredRow {
      AnsweredRow(value: value, text: members[name].map { String(decoding: a.body[$0], as: UTF8.self) } ?? value.text)
    }
    /// Why the row the answer names is not the write's, or nil when it is.
    func another(_ what: String, named: JSONValue?, expected: String?) -> Outcome? {
      guard let named else { return nil }
      guard let id = named.stringValue else { return unusable("names its \(what) by something that is not a string") }
      guard let expected, id != expected else { return nil }
      return unusable("was about \(what) \(Self.quoted(id)), not this write's \(Self.quoted(expected))")
    }
    let replayed = a.header("idempotency-replayed")?.lowercased() == "true" || json["acknowledged"]?.boolValue == true
    var kindWords: String { "an answer to \(w.kind.words)" }
    var row: AnsweredRow?
    switch w.kind {
    case .createItem, .updateItem, .restoreItem, .transitionItem:
      guard let item = json["item"], item["id"]?.stringValue != nil else {
        return unusable("carried no item, as \(kindWords) must")
      }
      if w.kind == .createItem, w.body["id"] == nil, w.body["source"]?.stringValue != nil,
        w.body["source_id"]?.stringValue != nil
      {
        // A natural key names the row; the instance says which row it is (an upsert answers
        // under that row's own id and fields): the copy moves onto it (``SQLite/land(_:on:)``).
      } else if let other = another("item", named: item["id"], expected: w.body["id"]?.stringValue ?? w.itemId) {
        return other
      }
      row = carried("item", item)
      if w.kind == .createItem, json["acknowledged"]?.boolValue == true, item["state"]?.stringValue == "trashed" {
        return .refused(Refusal(reason: "trashed", trashed: true))
      }
    case .deleteItem, .deleteEdge:
      guard json["ok"]?.boolValue == true || json["edge"] != nil || json["item"] != nil else {
        return unusable("was not {\"ok\":true}")
      }
      if let other = another("item", named: json["item"]?["id"], expected: w.kind == .deleteItem ? w.itemId : nil)
        ?? another("edge", named: json["edge"]?["id"], expected: w.kind == .deleteEdge ? w.edgeId : nil)
      {
        return other
      }
    case .createEdge, .updateEdge:
      guard let edge = json["edge"], edge["id"]?.stringValue != nil else {
        return unusable("carried no edge, as \(kindWords) must")
      }
      if let other = another("edge", named: edge["id"], expected: w.body["id"]?.stringValue ?? w.edgeId) {
        return other
      }
      row = carried("edge", edge)
    case .replaceMetadata, .mergeMetadata, .addTag, .removeTag:
      // A sidecar door's answer carries the metadata whole, or (the contract's fixtures do) nothing:
      // an empty object is the door's plain "done". Anything else it carries must be the metadata.
      if json["metadata"] == nil, json.objectValue?.isEmpty == true { break }
      guard case .object = json["metadata"] ?? .null else {
        return unusable("carried no metadata, as \(kindWords) must")
      }
      if let other = another("item", named: json["metadata"]?["item_id"], expected: w.itemId) { return other }
    case .writeExtension, .deleteExtension:
      guard case .object = json["extensions"] ?? json["metadata"]?["extensions"] ?? .null else {
        return unusable("carried no extensions, as \(kindWords) must")
      }
      if let other = another("item", named: json["metadata"]?["item_id"] ?? json["item_id"], expected: w.itemId) {
        return other
      }
    case .uploadBlob:
      guard json["hash"] != nil else { return unusable("carried no hash, as an upload's answer must") }
      // Named `sha256:<hex>` as the contract names bytes; an earlier build's bare hex is the same name.
      let named = json["hash"]?.stringValue.map { JSONValue.string(BlobFolder.hex(of: $0)) } ?? json["hash"]
      if let other = another("blob", named: named, expected: w.blob.map(BlobFolder.hex(of:))) { return other }
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

  /// An id or name from an answer, quoted and cut for a sentence (the whole stays in the answer).
  static func quoted(_ text: String) -> String {
    let limit = 80
    let shown =
      text.unicodeScalars.count > limit
      ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "…" : text
    return "'\(shown)'"
  }
}
