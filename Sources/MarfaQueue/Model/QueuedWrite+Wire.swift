extension QueuedWrite {
  /// The queue row as the contract reports it (snake_case), plus this project's fields.
  ///
  /// A waiting write reads `verdict: "blocked"`, `reason: "awaiting_dependency"`, `waiting: true`;
  /// `state` is the one word every view gives (``stateWord``).
  public var wireJSON: JSONValue {
    var members = JSONMemberList(capacity: 30)
    writeWire(to: &members)
    return members.object
  }

  /// ``wireJSON``'s compact text, written straight out with no tree between (the same bytes as
  /// its `text(escaping:)`), after the members `leading` adds: a `watch --plain --json` line
  /// puts its time and event first, for every write a drain answers.
  public func wireText(escaping: JSONEscaping, leading: (inout JSONObjectText) -> Void = { _ in }) -> String {
    var text = JSONObjectText(escaping: escaping)
    leading(&text)
    writeWire(to: &text)
    return text.text()
  }

  /// Adds ``wireJSON``'s members to `sink`, in order: the one place the row's shape is written.
  func writeWire<Sink: JSONObjectSink>(to sink: inout Sink) {
    let verdictName: String? = waiting && verdict == nil ? "blocked" : verdict?.wireName
    let reason = verdict?.wireReason ?? (waiting ? "awaiting_dependency" : nil)
    sink.add("id", string: id)
    sink.add("kind", string: Self.kindName(kind, unknown: unknownKind))
    // Only a kind this build does not know adds a member: every other row keeps its shape.
    if unknownKind != nil { sink.add("kind_unreadable", bool: true) }
    sink.add("item_id", string: itemId)
    sink.add("target_id", string: targetId)
    sink.add("edge_id", string: edgeId)
    sink.add("namespace", string: namespace)
    sink.add("tag", string: tag)
    sink.add("blob", string: blob)
    sink.add("base_version", int: baseVersion)
    sink.add("idempotency_key", string: idempotencyKey)
    sink.add("depends_on", strings: dependsOn)
    sink.add("follows", string: follows)
    sink.add("verdict", string: verdictName)
    sink.add("reason", string: reason)
    sink.add("waiting", bool: waiting)
    sink.add("state", string: stateWord)
    sink.add("answer", string: answer)
    sink.add("refusal", verdict?.refusal?.wireJSON ?? .null)
    sink.add("merged_fields", strings: verdict?.mergedFields ?? [])
    sink.add("body", body)
    sink.add("conflicted_copy_id", string: conflictedCopyId)
    sink.add("refusals", int: refusals)
    sink.add(
      "last_failure",
      lastFailure.map { .object([("status", Wire.int($0.status)), ("text", Wire.str($0.text))]) } ?? .null)
    sink.add("environmental_streak", int: environmentalStreak)
    sink.add("instance_id", string: instanceId)
    sink.add("sent", bool: sent)
    sink.add("replayed", bool: replayed)
    sink.add("queued_at", string: queuedAt)
    sink.add("answered_at", string: answeredAt)
  }

  /// `kind` as reported: the wire name, or what the store holds when this build does not know
  /// it (null when it holds none).
  static func kindName(_ kind: WriteKind, unknown: String?) -> String? {
    guard let unknown else { return kind.wireName }
    return unknown.isEmpty ? nil : unknown
  }
}

extension DrainReport {
  /// The contract's `DrainReport` shape (snake_case), with this project's `verdicts_omitted`,
  /// `verdict_counts`, `started_at` and `ended_at`.
  public var wireJSON: JSONValue {
    summaryJSON(verdicts: .array(verdicts.map(\.wireJSON)))
  }

  /// The report without its verdict entries: what the store keeps as the last drain, and all a
  /// status reads (its size does not grow with the drain).
  package var summaryJSON: JSONValue { summaryJSON(verdicts: nil) }

  private func summaryJSON(verdicts: JSONValue?) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("answered", .int(answered)),
      ("held", .int(held)),
      ("undelivered", .int(undelivered)),
      ("unsent", .int(unsent)),
      ("unmade", .int(unmade)),
      ("unavailable", Wire.str(unavailable)),
    ]
    if let verdicts { members.append(("verdicts", verdicts)) }
    members += [
      ("verdicts_omitted", .int(verdictsOmitted)),
      ("verdict_counts", .object(verdictCounts.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value)) })),
      ("stopped", Wire.str(stopped)),
      ("unclaimed_sources", Wire.strings(unclaimedSources)),
      ("retry_after_seconds", Wire.int(retryAfterSeconds)),
      ("started_at", Wire.str(startedAt)),
      ("ended_at", Wire.str(endedAt)),
    ]
    return .object(members)
  }
}

extension DrainVerdict {
  /// The contract's `DrainVerdict` shape (snake_case).
  public var wireJSON: JSONValue {
    let reason = verdict?.wireReason
    let mergedFields = verdict?.mergedFields ?? []
    var members: [(String, JSONValue)] = [
      ("id", .string(id)),
      ("kind", Wire.str(QueuedWrite.kindName(kind, unknown: unknownKind))),
    ]
    if unknownKind != nil { members.append(("kind_unreadable", .bool(true))) }
    return .object(
      members + [
        ("item_id", Wire.str(itemId)),
        ("edge_id", Wire.str(edgeId)),
        ("verdict", Wire.str(verdict?.wireName)),
        ("reason", Wire.str(reason)),
        ("conflicted_copy_id", Wire.str(conflictedCopyId)),
        ("refusals", .int(refusals)),
        ("replayed", .bool(replayed)),
        ("merged_fields", Wire.strings(mergedFields)),
        ("refusal", verdict?.refusal?.wireJSON ?? .null),
      ])
  }
}

extension DrainReport {
  /// Reads the counts and reasons of a report kept as wire JSON (the verdict list is not kept).
  /// The numbers of a kept report and what each may be (``StoredRange``); one out of range is
  /// read as 0 (or none).
  static let storedNumbers: [([String], ClosedRange<Int>)] =
    ["answered", "held", "undelivered", "unsent", "unmade", "verdicts_omitted"].map { ([$0], StoredRange.count) }
    + [(["retry_after_seconds"], StoredRange.retryAfterSeconds)]

  /// The first number of a kept report out of its range (the store was damaged).
  static func damage(inWireJSON json: JSONValue) -> StoreDamage? {
    StoredJSON.damage(json, record: "last_drain", storedNumbers)
      ?? StoredJSON.countsDamage(json, record: "last_drain", ["verdict_counts"])
  }

  init?(wireJSON json: JSONValue) {
    guard json["answered"]?.intValue != nil else { return nil }
    func count(_ name: String) -> Int { StoredJSON.int(json[name], StoredRange.count) ?? 0 }
    self.init(
      answered: count("answered"), held: count("held"), undelivered: count("undelivered"),
      unsent: count("unsent"), unmade: count("unmade"),
      unavailable: json["unavailable"]?.stringValue, stopped: json["stopped"]?.stringValue,
      unclaimedSources: json["unclaimed_sources"]?.arrayValue?.compactMap(\.stringValue) ?? [],
      retryAfterSeconds: StoredJSON.int(json["retry_after_seconds"], StoredRange.retryAfterSeconds))
    verdictsOmitted = count("verdicts_omitted")
    if case .object(let counts)? = json["verdict_counts"] {
      // A name twice keeps its last count, as every member read does (a sum could pass any bound).
      verdictCounts = Dictionary(
        counts.compactMap { k, v in StoredJSON.int(v, StoredRange.count).map { (k, $0) } },
        uniquingKeysWith: { _, last in last })
    }
    startedAt = json["started_at"]?.stringValue
    endedAt = json["ended_at"]?.stringValue
  }
}

extension DrainVerdict {
  /// Reads an entry kept as wire JSON (the store's last drain); nil when it is not one.
  init?(wireJSON json: JSONValue) {
    guard let id = json["id"]?.stringValue, let kind = json["kind"]?.stringValue.flatMap(WriteKind.init(rawValue:))
    else { return nil }
    let reason = json["reason"]?.stringValue
    let refusal = json["refusal"].flatMap(Refusal.init(wireJSON:))
    let fields = json["merged_fields"]?.arrayValue?.compactMap(\.stringValue) ?? []
    let conflicted = json["conflicted_copy_id"]?.stringValue
    let verdict: Verdict?
    switch json["verdict"]?.stringValue.flatMap(VerdictName.init(rawValue:)) {
    case .accepted: verdict = .accepted
    case .merged: verdict = .merged(fields: fields)
    case .conflicted: verdict = .conflicted(siblingId: conflicted ?? "", fields: fields)
    case .refused: verdict = .refused(refusal ?? Refusal(reason: reason ?? "unknown"))
    case .blocked:
      verdict = .blocked(reason: BlockedReason(rawValue: reason ?? "") ?? .credentialRefused, refusal: refusal)
    case .dead: verdict = .dead
    case nil: verdict = nil
    }
    self.init(
      id: id, kind: kind, itemId: json["item_id"]?.stringValue, edgeId: json["edge_id"]?.stringValue, verdict: verdict,
      refusals: StoredRange.clamp(json["refusals"]?.intValue ?? 0, StoredRange.refusals),
      replayed: json["replayed"]?.boolValue ?? false,
      conflictedCopyId: conflicted)
  }
}
