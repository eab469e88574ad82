import MarfaWire

extension MarfaModel {
  /// `POST /items`: a new item (201), a natural-key upsert (200), or a refusal.
  mutating func createItem(_ body: ScriptedJSON) -> ModelAnswer {
    guard let fields = body.objectValue else { return .validation([("body", "must be a JSON object")]) }
    var errors: [(field: String, message: String)] = []
    let typeName = fields["type"]?.stringValue ?? ""
    if typeName.isEmpty { errors.append(("type", "is required")) }
    let properties = fields["properties"]?.objectValue ?? [:]
    if let p = fields["properties"], p.objectValue == nil { errors.append(("properties", "must be an object")) }
    if fields["conflict"] != nil { errors.append(("conflict", "is not taken on a create")) }
    for name in type(typeName).requiredProperties where (properties[name] ?? .null) == .null {
      errors.append(("properties.\(name)", "is required"))
    }
    if let id = fields["id"], (id.stringValue ?? "").isEmpty { errors.append(("id", "must be a non-empty string")) }
    if !errors.isEmpty { return .validation(errors) }

    let source = fields["source"]?.stringValue
    let sourceId = fields["source_id"]?.stringValue
    if let id = fields["id"]?.stringValue, let existing = items[id] {
      return .error(409, "id_reused", "The id \(id) already names an item", details: ["id": .string(existing.id)])
    }
    if fields["id"] == nil, let source, let sourceId,
      let existing = items.values.first(where: { $0.source == source && $0.sourceId == sourceId })
    {
      return upsert(existing, properties: properties, version: fields["version"]?.intValue)
    }

    let now = Timestamp.now()
    var item = ItemRecord(
      id: fields["id"]?.stringValue ?? mintId(), type: typeName, properties: Self.applying(properties, to: [:]),
      version: 1, state: "active", tier: fields["tier"]?.stringValue ?? "standard", source: source,
      sourceId: sourceId, occurredAt: fields["occurred_at"]?.stringValue, createdAt: now, updatedAt: now,
      seq: nextOrder())
    item.keepSnapshot()
    insert(item)
    logItem("item.created", item)
    return .ok(item.withMetadata, status: 201)
  }

  /// A create whose natural key names a row already held.
  private mutating func upsert(_ existing: ItemRecord, properties: [String: ScriptedJSON], version: Int?) -> ModelAnswer
  {
    if version == 0 {
      return .error(
        409, "ancestor_unavailable", "The create was based on no row, but the key names one",
        extra: ["current": existing.summary, "requested_version": 0])
    }
    if existing.state == "trashed" {
      var body = existing.withMetadata.objectValue!
      body["acknowledged"] = true
      return ModelAnswer(status: 200, body: .object(body))
    }
    var item = existing
    item.properties = Self.applying(properties, to: item.properties)
    item.version += 1
    item.updatedAt = Timestamp.now()
    item.keepSnapshot()
    items[item.id] = item
    logItem("item.updated", item)
    return .ok(item.withMetadata)
  }

  /// `PATCH /items/{id}`: at the current version → applied; stale → merged by the type's policy, or refused.
  mutating func updateItem(_ id: String, _ body: ScriptedJSON, conflictAuto: Bool) -> ModelAnswer {
    guard var item = items[id] else { return .itemNotFound(id) }
    if item.state == "trashed" { return .itemNotFound(id, trashed: true) }
    guard let fields = body.objectValue else { return .validation([("body", "must be a JSON object")]) }
    guard let version = fields["version"]?.intValue else { return .validation([("version", "is required")]) }
    if let p = fields["properties"], p.objectValue == nil { return .validation([("properties", "must be an object")]) }
    let sent = fields["properties"]?.objectValue ?? [:]
    let replace = fields["properties_mode"]?.stringValue == "replace"
    let newType = fields["retype"]?.boolValue == true ? fields["type"]?.stringValue : nil

    var resolution: ScriptedJSON?
    var copy: ItemRecord?
    if version == item.version {
      item.properties = replace ? Self.applying(sent, to: [:]) : Self.applying(sent, to: item.properties)
    } else {
      guard let base = item.snapshots[version] else {
        return .error(
          409, "ancestor_unavailable", "Version \(version) of \(id) is not available to merge from",
          extra: ["current": item.summary, "requested_version": .number(Double(version))])
      }
      let current = item.properties
      let value = { (props: [String: ScriptedJSON], key: String) in props[key] ?? .null }
      let serverChanged = Set(base.properties.keys).union(current.keys).filter {
        value(base.properties, $0) != value(current, $0)
      }
      let clientKeys = replace ? Set(base.properties.keys).union(sent.keys) : Set(sent.keys)
      let clientChanged = clientKeys.filter { value(sent, $0) != value(base.properties, $0) }
      let collisions = clientChanged.intersection(serverChanged).filter { value(sent, $0) != value(current, $0) }
      let policy = type(item.type)
      if !conflictAuto && !serverChanged.isEmpty || !collisions.isEmpty && newType != nil && newType != item.type {
        return .error(
          409, "version_conflict", "\(id) changed since version \(version)",
          extra: [
            "current": item.summary,
            "ancestor": [
              "id": .string(id), "version": .number(Double(version)), "properties": .object(base.properties),
              "type": .string(base.type),
            ],
            "conflicting_fields": .array(collisions.sorted().map { .string($0) }),
            "merge_policy": [
              "fields": .object(policy.mergePolicy.mapValues { .string($0.rawValue) }),
              "default": .string(policy.defaultStrategy.rawValue),
            ],
          ])
      }
      let keptBoth = collisions.filter { policy.strategy(for: $0) == .keepBothCopies }
      var merged = current
      for key in clientChanged where !keptBoth.contains(key) {
        merged[key] = value(sent, key) == .null ? nil : sent[key]
      }
      item.properties = merged
      if collisions.isEmpty {
        if !serverChanged.isEmpty {
          resolution = ["fields": .array(serverChanged.sorted().map { .string($0) }), "strategy": [:]]
        }
      } else {
        var strategy: [String: ScriptedJSON] = [:]
        for key in collisions { strategy[key] = .string(policy.strategy(for: key).rawValue) }
        var members: [String: ScriptedJSON] = [
          "fields": .array(collisions.sorted().map { .string($0) }), "strategy": .object(strategy),
        ]
        if !keptBoth.isEmpty {
          var theirs = current
          for key in clientChanged { theirs[key] = value(sent, key) == .null ? nil : sent[key] }
          let now = Timestamp.now()
          var sibling = ItemRecord(
            id: mintId(), type: item.type, properties: theirs, version: 1, state: "active", tier: item.tier,
            source: nil, sourceId: nil, occurredAt: item.occurredAt, createdAt: now, updatedAt: now, seq: nextOrder(),
            tags: ["conflicted-copy"])
          sibling.keepSnapshot()
          copy = sibling
          members["conflicted_copy_id"] = .string(sibling.id)
        }
        resolution = .object(members)
      }
    }
    if let newType { item.type = newType }
    if let tier = fields["tier"]?.stringValue { item.tier = tier }
    item.version += 1
    item.updatedAt = Timestamp.now()
    item.keepSnapshot()
    items[id] = item
    logItem("item.updated", item)
    if let copy {
      insert(copy)
      logItem("item.created", copy)
      let now = Timestamp.now()
      let edge = EdgeRecord(
        id: mintId(), sourceId: copy.id, targetId: id, edgeType: "derived-from", properties: [:], version: 1,
        createdAt: now, updatedAt: now, seq: nextOrder())
      edges[edge.id] = edge
      logEdge("edge.created", edge)
    }
    var answer = item.withMetadata.objectValue!
    if let resolution { answer["conflict_resolution"] = resolution }
    return .ok(.object(answer))
  }

  /// `DELETE /items/{id}?version=N`: trashes the item at its current version.
  mutating func deleteItem(_ id: String, version: Int?) -> ModelAnswer {
    guard var item = items[id] else { return .itemNotFound(id) }
    if item.state == "trashed" { return .itemNotFound(id, trashed: true) }
    guard let version else { return .validation([("version", "is required")]) }
    guard version == item.version else {
      return .error(
        409, "version_conflict", "\(id) is at version \(item.version), not \(version)", extra: ["current": item.summary]
      )
    }
    item.state = "trashed"
    item.updatedAt = Timestamp.now()
    items[id] = item
    logItem("item.deleted", item)
    return .ok(["ok": true])
  }

  /// `POST /items/{id}/restore` and `POST /items/{id}/transition`: a new state, the version unmoved.
  mutating func setState(_ id: String, to state: String?, event: String) -> ModelAnswer {
    guard var item = items[id] else { return .itemNotFound(id) }
    guard let state, ["active", "archived", "trashed"].contains(state) else {
      return .validation([("state", "must be active, archived or trashed")])
    }
    item.state = state
    item.updatedAt = Timestamp.now()
    items[id] = item
    logItem(event, item)
    return .ok(item.withMetadata)
  }

  /// `POST /items/{id}/purge`: the item and its edges are gone for good.
  mutating func purgeItem(_ id: String) -> ModelAnswer {
    guard let item = remove(id) else { return .itemNotFound(id) }
    edges = edges.filter { $0.value.sourceId != id && $0.value.targetId != id }
    logItem("item.purged", item)
    return .ok(["ok": true])
  }

  /// `GET /items/{id}`: `{item, metadata}`; a trashed row is `404` with `details.trashed`.
  func readItem(_ id: String) -> ModelAnswer {
    guard let item = items[id] else { return .itemNotFound(id) }
    if item.state == "trashed" { return .itemNotFound(id, trashed: true) }
    return ModelAnswer(status: 200, body: item.withMetadata)
  }

  /// `GET /items`: a page of `{item, metadata}` in creation order and the cursor of the next page.
  func listItems(state: String?, types: Set<String>?, limit: Int, after cursor: Int, withEdges: Bool) -> ModelAnswer {
    var page: [ItemRecord] = []
    var more = false
    for entry in itemOrder[orderIndex(after: cursor)...] {
      guard let item = items[entry.id], types?.contains(item.type) ?? true,
        state == "any" || (state.map { item.state == $0 } ?? (item.state != "trashed"))
      else { continue }
      if page.count == limit {
        more = true
        break
      }
      page.append(item)
    }
    let data = page.map { item -> ScriptedJSON in
      var entry = item.withMetadata.objectValue!
      if withEdges {
        // As the contract's pages carry them: the item's own edges (those it is the source of)
        // inside the item, by edge type, each type one page `{data, next_cursor}`.
        let own = edges.values.filter { $0.sourceId == item.id }.sorted { $0.seq < $1.seq }
        var byType: [String: ScriptedJSON] = [:]
        for type in Set(own.map(\.edgeType)) {
          byType[type] = ["data": .array(own.filter { $0.edgeType == type }.map(\.json)), "next_cursor": .null]
        }
        var itemJSON = entry["item"]?.objectValue ?? [:]
        itemJSON["edges"] = .object(byType)
        entry["item"] = .object(itemJSON)
      }
      return .object(entry)
    }
    let next: ScriptedJSON = more ? .string(String(page.last!.seq)) : .null
    return ModelAnswer(status: 200, body: ["data": .array(data), "next_cursor": next])
  }
}
