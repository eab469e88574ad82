extension ScenarioReader {
  func scenario(_ value: ScriptedJSON) throws -> Scenario {
    let o = try object(
      value, at: "scenario",
      allowed: [
        "name", "summary", "instance_id", "accepted_keys", "start_key", "types", "items", "edges",
        "concurrent_edits", "rules", "writes", "steps",
      ])
    var keys: Set<String>?
    if let list = try strings(o, "accepted_keys", at: "scenario") { keys = Set(list) }
    return Scenario(
      name: try required(o, "name", at: "scenario"), summary: try string(o, "summary", at: "scenario") ?? "",
      instanceId: try string(o, "instance_id", at: "scenario") ?? Scenario.defaultInstanceId,
      types: try each(o, "types", at: "", itemType), items: try each(o, "items", at: "", item),
      edges: try each(o, "edges", at: "", edge), concurrentEdits: try each(o, "concurrent_edits", at: "", edit),
      rules: try each(o, "rules", at: "", rule), acceptedKeys: keys,
      startKey: try string(o, "start_key", at: "scenario"),
      writes: try each(o, "writes", at: "", write), steps: try strings(o, "steps", at: "scenario") ?? [])
  }

  func strategy(_ value: ScriptedJSON, at: String) throws -> MergeStrategy {
    guard let s = value.stringValue, let strategy = MergeStrategy(rawValue: s) else {
      throw fail(at, "must be \"last_writer_wins\" or \"keep_both_copies\"")
    }
    return strategy
  }

  func itemType(_ value: ScriptedJSON, at: String) throws -> ItemType {
    let o = try object(value, at: at, allowed: ["name", "merge_policy", "default", "required"])
    var policy: [String: MergeStrategy] = [:]
    for (field, s) in try properties(o, "merge_policy", at: at) ?? [:] {
      policy[field] = try strategy(s, at: "\(at).merge_policy.\(field)")
    }
    return ItemType(
      try required(o, "name", at: at), mergePolicy: policy,
      defaultStrategy: try o["default"].map { try strategy($0, at: "\(at).default") } ?? .lastWriterWins,
      requiredProperties: try strings(o, "required", at: at) ?? [])
  }

  func item(_ value: ScriptedJSON, at: String) throws -> SeedItem {
    let o = try object(
      value, at: at,
      allowed: [
        "id", "type", "properties", "history", "state", "tier", "tags", "extensions", "source", "source_id",
        "occurred_at",
      ])
    let history = try each(o, "history", at: at) { v, path in
      guard let p = v.objectValue else { throw fail(path, "must be an object") }
      return p
    }
    let state = try string(o, "state", at: at) ?? "active"
    guard ["active", "archived", "trashed"].contains(state) else {
      throw fail("\(at).state", "must be active, archived or trashed")
    }
    return SeedItem(
      id: try required(o, "id", at: at), type: try required(o, "type", at: at),
      properties: try properties(o, "properties", at: at) ?? [:], history: history, state: state,
      tier: try string(o, "tier", at: at) ?? "standard", tags: try strings(o, "tags", at: at) ?? [],
      extensions: try properties(o, "extensions", at: at) ?? [:], source: try string(o, "source", at: at),
      sourceId: try string(o, "source_id", at: at), occurredAt: try string(o, "occurred_at", at: at))
  }

  func edge(_ value: ScriptedJSON, at: String) throws -> SeedEdge {
    let o = try object(value, at: at, allowed: ["id", "source_id", "target_id", "edge_type", "properties"])
    return SeedEdge(
      id: try required(o, "id", at: at), sourceId: try required(o, "source_id", at: at),
      targetId: try required(o, "target_id", at: at), edgeType: try required(o, "edge_type", at: at),
      properties: try properties(o, "properties", at: at) ?? [:])
  }

  func edit(_ value: ScriptedJSON, at: String) throws -> ConcurrentEdit {
    let o = try object(value, at: at, allowed: ["item_id", "properties", "state", "forget_history"])
    return ConcurrentEdit(
      itemId: try required(o, "item_id", at: at), properties: try properties(o, "properties", at: at) ?? [:],
      state: try string(o, "state", at: at), forgetHistory: try bool(o, "forget_history", at: at) ?? false)
  }

  func rule(_ value: ScriptedJSON, at: String) throws -> ScriptRule {
    let o = try object(value, at: at, allowed: ["match", "answers", "repeat_last"])
    let answers = try each(o, "answers", at: at, answer)
    if answers.isEmpty { throw fail("\(at).answers", "needs at least one answer") }
    return ScriptRule(
      try match(o["match"] ?? .object([:]), at: "\(at).match"), answers: answers,
      repeatsLast: try bool(o, "repeat_last", at: at) ?? false)
  }

  func match(_ value: ScriptedJSON, at: String) throws -> ScriptMatch {
    let o = try object(
      value, at: at, allowed: ["method", "path", "path_prefix", "path_glob", "write_id", "body_contains", "bearer"])
    var methods: Set<String> = []
    if let m = o["method"] {
      if let one = m.stringValue {
        methods = [one]
      } else if let many = try strings(o, "method", at: at) {
        methods = Set(many)
      }
    }
    var path: PathPattern?
    if let p = try string(o, "path", at: at) { path = PathPattern(stringLiteral: p) }
    if let p = try string(o, "path_prefix", at: at) { path = .prefix(p) }
    if let p = try string(o, "path_glob", at: at) { path = .glob(p) }
    return ScriptMatch(
      methods: methods, path: path, writeId: try string(o, "write_id", at: at),
      bodyContains: try string(o, "body_contains", at: at), bearer: try string(o, "bearer", at: at))
  }

  /// The answers named by a bare string.
  static let bareAnswers: [String: ScriptedAnswer] = [
    "normal": .normal, "drop": .drop, "stall": .stall, "unauthorized": .unauthorized,
    "version_conflict": .versionConflict, "ancestor_unavailable": .ancestorUnavailable, "key_reused": .keyReused,
    "in_flight": .inFlight, "unreadable_2xx": .unreadable2xx, "server_fault": .serverFault,
    "rate_limited": .rateLimited(seconds: 2), "gateway_page": .gatewayPage(status: 502),
  ]

  func answer(_ value: ScriptedJSON, at: String) throws -> ScriptedAnswer {
    if let name = value.stringValue {
      guard let answer = Self.bareAnswers[name] else {
        throw fail(at, "unknown answer \"\(name)\" (known: \(Self.bareAnswers.keys.sorted().joined(separator: ", ")))")
      }
      return answer
    }
    let o = try object(
      value, at: at,
      allowed: [
        "answer", "status", "body", "content_type", "kind", "name", "level", "source", "errors", "seconds",
        "instance_id", "contract", "retry_after", "headers",
      ])
    let name = try required(o, "answer", at: at)
    var answer: ScriptedAnswer
    switch name {
    case "status":
      guard let status = try int(o, "status", at: at) else { throw fail("\(at).status", "is required") }
      let body: String = o["body"].map { $0.stringValue ?? $0.text } ?? ""
      let contentType: String? =
        o.keys.contains("content_type") ? try string(o, "content_type", at: at) : "application/json"
      answer = .status(status, body: body, contentType: contentType)
    case "missing_grant":
      answer = .missingGrant(
        kind: try string(o, "kind", at: at) ?? "type", name: try required(o, "name", at: at),
        level: try string(o, "level", at: at) ?? "write")
    case "unclaimed_source": answer = .unclaimedSource(try required(o, "source", at: at))
    case "validation":
      let errors = try each(o, "errors", at: at) { v, path -> (field: String, message: String) in
        let e = try object(v, at: path, allowed: ["field", "message"])
        return (try required(e, "field", at: path), try string(e, "message", at: path) ?? "")
      }
      answer = .validation(errors)
    case "rate_limited": answer = .rateLimited(seconds: try int(o, "seconds", at: at) ?? 2)
    case "gateway_page": answer = .gatewayPage(status: try int(o, "status", at: at) ?? 502)
    case "other_instance": answer = .otherInstance(try required(o, "instance_id", at: at))
    default:
      guard let bare = Self.bareAnswers[name] else { throw fail("\(at).answer", "unknown answer \"\(name)\"") }
      answer = bare
    }
    if let contract = o["contract"] {
      switch contract {
      case .null: answer.contract = .absent
      case .string(let one): answer.contract = .values([one])
      default:
        guard let many = try strings(o, "contract", at: at) else { throw fail("\(at).contract", "bad value") }
        answer.contract = .values(many)
      }
    }
    if let seconds = try int(o, "retry_after", at: at) { answer.retryAfter = seconds }
    for (header, v) in try properties(o, "headers", at: at) ?? [:] {
      guard let text = v.stringValue else { throw fail("\(at).headers.\(header)", "must be a string") }
      answer.headers[header] = text
    }
    return answer
  }

  func write(_ value: ScriptedJSON, at: String) throws -> ScenarioWrite {
    let o = try object(
      value, at: at,
      allowed: [
        "kind", "item_id", "edge_id", "target_id", "edge_type", "type", "properties", "version", "tags", "tag",
        "namespace", "body", "state", "content", "mime_type", "expect",
      ])
    let kind = try required(o, "kind", at: at)
    guard Self.writeKinds.contains(kind) else {
      throw fail("\(at).kind", "unknown kind \"\(kind)\" (known: \(Self.writeKinds.joined(separator: ", ")))")
    }
    return ScenarioWrite(
      kind: kind, itemId: try string(o, "item_id", at: at), edgeId: try string(o, "edge_id", at: at),
      targetId: try string(o, "target_id", at: at), edgeType: try string(o, "edge_type", at: at),
      type: try string(o, "type", at: at),
      properties: try properties(o, "properties", at: at).map { ScriptedJSON.object($0).text },
      version: try int(o, "version", at: at), tags: try strings(o, "tags", at: at), tag: try string(o, "tag", at: at),
      namespace: try string(o, "namespace", at: at), body: o["body"].map(\.text), state: try string(o, "state", at: at),
      content: try string(o, "content", at: at), mimeType: try string(o, "mime_type", at: at),
      expect: try string(o, "expect", at: at) ?? "")
  }

  /// The fifteen write kinds of the contract.
  static let writeKinds = [
    "create_item", "update_item", "delete_item", "restore_item", "transition_item", "create_edge", "update_edge",
    "delete_edge", "replace_metadata", "merge_metadata", "add_tag", "remove_tag", "write_extension",
    "delete_extension", "upload_blob",
  ]
}
