import MarfaWire

/// The instance's data: items with their versions, edges, metadata, blobs and the event log.
///
/// A value type: the instance mutates it under its lock.
struct MarfaModel: Sendable {
  /// One entry of the event log.
  struct Event: Sendable {
    var cursor: Int
    var isEdge: Bool
    var body: ScriptedJSON
  }

  /// One uploaded blob.
  struct Blob: Sendable {
    var mimeType: String
    var bytes: [UInt8]
  }

  var types: [String: ItemType] = [:]
  var items: [String: ItemRecord] = [:]
  /// The ids of the items held, by creation order (`seq` ascending), for paging.
  private(set) var itemOrder: [(seq: Int, id: String)] = []
  var edges: [String: EdgeRecord] = [:]
  var blobs: [String: Blob] = [:]
  var events: [Event] = []
  /// Cursors below this are older than the log keeps: a catch-up from one is `catchup_too_old`.
  var eventHorizon = 0
  /// The cursor of the last event (0 when none).
  var headCursor = 0
  private var nextSeq = 0
  private var minted = 0

  init(types: [ItemType] = []) {
    for t in types { self.types[t.name] = t }
  }

  /// The type named `name` (an unknown type merges last-writer-wins and requires nothing).
  func type(_ name: String) -> ItemType { types[name] ?? ItemType(name) }

  /// A fresh server-minted id, UUID-shaped and readable: `00000000-0000-7000-9000-000000000001`.
  mutating func mintId() -> String {
    minted += 1
    let digits = String(minted)
    return "00000000-0000-7000-9000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
  }

  /// The next creation order number.
  mutating func nextOrder() -> Int {
    nextSeq += 1
    return nextSeq
  }

  /// Holds a new item (or replaces one of the same id, which then takes its new place in the order).
  mutating func insert(_ item: ItemRecord) {
    if items[item.id] != nil { itemOrder.removeAll { $0.id == item.id } }
    items[item.id] = item
    itemOrder.append((item.seq, item.id))
  }

  /// Lets an item go for good.
  mutating func remove(_ id: String) -> ItemRecord? {
    guard let item = items.removeValue(forKey: id) else { return nil }
    itemOrder.removeAll { $0.id == id }
    return item
  }

  /// The position in `itemOrder` of the first item created after `seq`.
  func orderIndex(after seq: Int) -> Int {
    var low = 0
    var high = itemOrder.count
    while low < high {
      let mid = (low + high) / 2
      if itemOrder[mid].seq <= seq { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// Appends an event for an item (`item.created`…) carrying `{item, metadata}`.
  mutating func logItem(_ eventType: String, _ item: ItemRecord, extra: [String: ScriptedJSON] = [:]) {
    var body = extra
    body["item"] = item.json
    body["metadata"] = item.metadataJSON
    log(eventType, body, isEdge: false)
  }

  /// Appends an event for an edge (`edge.created`…) carrying `{edge}`.
  mutating func logEdge(_ eventType: String, _ edge: EdgeRecord) {
    log(eventType, ["edge": edge.json], isEdge: true)
  }

  private mutating func log(_ eventType: String, _ members: [String: ScriptedJSON], isEdge: Bool) {
    headCursor += 1
    var body = members
    body["event_type"] = .string(eventType)
    body["cursor"] = .string(String(headCursor))
    events.append(Event(cursor: headCursor, isEdge: isEdge, body: .object(body)))
  }

  /// Forgets the events before `cursor`: a catch-up from an earlier cursor is then too old.
  mutating func forgetEvents(before cursor: Int) {
    eventHorizon = max(eventHorizon, min(cursor, headCursor))
    events.removeAll { $0.cursor <= eventHorizon }
  }

  /// The events after `cursor`, edge events only when asked for.
  func events(after cursor: Int, edges: Bool) -> [Event] {
    events.filter { $0.cursor > cursor && (edges || !$0.isEdge) }
  }

  /// Adds a seed item as it is, version history included.
  mutating func seed(_ seed: SeedItem) {
    let now = Timestamp.now()
    var record = ItemRecord(
      id: seed.id, type: seed.type, properties: [:], version: 0, state: seed.state, tier: seed.tier,
      source: seed.source, sourceId: seed.sourceId, occurredAt: seed.occurredAt, createdAt: now, updatedAt: now,
      seq: nextOrder(), tags: seed.tags, extensions: seed.extensions)
    for properties in seed.history + [seed.properties] {
      record.version += 1
      record.properties = properties
      record.keepSnapshot()
    }
    insert(record)
    logItem("item.created", record)
  }

  /// Adds a seed edge as it is.
  mutating func seed(_ seed: SeedEdge) {
    let now = Timestamp.now()
    let edge = EdgeRecord(
      id: seed.id, sourceId: seed.sourceId, targetId: seed.targetId, edgeType: seed.edgeType,
      properties: seed.properties, version: 1, createdAt: now, updatedAt: now, seq: nextOrder())
    edges[edge.id] = edge
    logEdge("edge.created", edge)
  }

  /// Another writer edits an item: its properties change (null removes one) and its version moves on.
  @discardableResult
  mutating func edit(_ edit: ConcurrentEdit) -> Bool {
    guard var item = items[edit.itemId] else { return false }
    if !edit.properties.isEmpty {
      item.properties = Self.applying(edit.properties, to: item.properties)
      item.version += 1
      item.keepSnapshot()
    }
    if edit.forgetHistory { item.snapshots = item.snapshots.filter { $0.key == item.version } }
    if let state = edit.state { item.state = state }
    item.updatedAt = Timestamp.now()
    items[item.id] = item
    logItem(edit.state == "trashed" ? "item.deleted" : "item.updated", item)
    return true
  }

  /// `changes` laid over `properties`, a null removing the field.
  static func applying(_ changes: [String: ScriptedJSON], to properties: [String: ScriptedJSON]) -> [String:
    ScriptedJSON]
  {
    var result = properties
    for (key, value) in changes {
      if value == .null { result[key] = nil } else { result[key] = value }
    }
    return result
  }
}
