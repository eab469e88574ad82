import FoundationEssentials

extension WorkingCopy {
  /// Fills the copy from the instance: which instance it is, the event cursor, and every item row.
  ///
  /// The fill is marked under way first; one that stops midway leaves it under way, so a drain
  /// throws ``QueueError/hydrationIncomplete`` until a fill completes. The queue is kept.
  ///
  /// The item pages are read one at a time, each page's rows staged in the store as it comes
  /// (never all held), within ``FillLimits``: a cursor given again, or more pages, rows or bytes
  /// than those, stops the fill with ``QueueError/contractBroken(what:)``. The copy takes the
  /// staged rows in one transaction at the end; a fill that stops leaves the copy's rows as they
  /// were, says how far it got, and the next fill reads every page again.
  ///
  /// The copy then catches up from the head it read first (``catchUp()``), so a write made while
  /// the pages were read is in the copy when the fill returns.
  public func fill() async throws {
    try await fill(limits: .standard)
    let by = queue.departingBy
    try? await store.run { db in
      try db.transaction(durable: true) { try db.record(.filled, by: by, detail: try db.meta(.instanceId)) }
    }
  }

  /// ``fill()`` within `limits` (tests give small ones).
  func fill(limits: FillLimits) async throws {
    try requireWriter()
    let (client, server) = try client()
    // The root first, without the key: one on another contract leaves the copy as it was.
    let root = try await readRoot()
    try await store.run { db in
      try db.transaction(durable: true) {
        try db.setMeta(.fill, FillState.underway.rawValue)
        try db.setMeta(.origin, server.url)
        // What an earlier fill staged and never took is read again.
        try db.dropStagedFillRows()
      }
    }
    let head = try await readCursor(server: server, instanceId: root.instanceId)
    var progress = FillProgress()
    do {
      try await readItemPages(client: client, server: server, limits: limits, progress: &progress)
    } catch {
      // The staged rows go (the copy keeps its rows); a store that cannot even do that keeps
      // them until the next fill drops them first.
      try? await store.run { db in try db.transaction(durable: false) { try db.dropStagedFillRows() } }
      throw error
    }
    try await store.run { db in
      try db.transaction(durable: true) {
        // Rows the queue's unanswered writes were laid over stay as the copy has them.
        try db.takeStagedFillRows()
        try db.adoptInstance(root.instanceId)
        try db.setMeta(.instanceId, root.instanceId)
        try db.setMeta(.cursor, head.cursor)
        try db.setMeta(.readView, head.readView)
        try db.setMeta(.expiredReason, nil)
        try db.setMeta(.fill, FillState.complete.rawValue)
      }
    }
    hub.send(.refreshed(.filled))
    // What was written while the pages were read is replayed from the head before the fill
    // returns; a replay that fails leaves the copy filled at the head for the next catch-up.
    try await catchUp()
  }

  /// Reads every page of `GET /items`, staging each page's rows in the store as it comes.
  func readItemPages(client: HTTPClient, server: Server, limits: FillLimits, progress: inout FillProgress)
    async throws
  {
    /// Stops the fill, saying how far it got.
    func broken(_ what: String, _ p: FillProgress) -> QueueError {
      .contractBroken(what: "the item pages \(what); the fill stopped \(p.words) and the copy's rows are as they were")
    }
    var pageCursor: String?
    while true {
      progress.lastCursor = pageCursor
      var query = "state=any&include=edges,metadata&limit=200"
      if let pageCursor {
        query += "&cursor=" + pageCursor.percentEncoded(keeping: .alphanumerics)
      }
      let response: HTTPResponse
      do {
        response = try await client.send("GET", try Self.url(server, "/items", query: query), key: server.key)
      } catch let e as TransportError {
        throw QueueError.network(message: "\(e.message) (the fill stopped \(progress.words))")
      }
      guard response.namesAContract else {
        throw QueueError.network(
          message:
            "the item pages were answered \(response.status) naming no contract (the fill stopped \(progress.words))")
      }
      guard response.namesOurContract else {
        throw QueueError.contractMismatch(served: response.header("X-Marfa-Contract"))
      }
      guard response.status == 200 else {
        if HTTPStatus.isEnvironmental(response.status) {
          throw QueueError.network(
            message: "the item pages were answered \(response.status) (the fill stopped \(progress.words))")
        }
        let err = response.json?["error"]
        throw QueueError.server(
          status: response.status, code: err?["code"]?.stringValue,
          message: (err?["message"]?.stringValue ?? "the item pages could not be read")
            + " (the fill stopped \(progress.words))")
      }
      progress.bytes += response.body.count
      guard progress.bytes <= limits.bytes else {
        throw broken("passed \(ResponseLimits.words(limits.bytes)) in all", progress)
      }
      guard let json = response.json, let data = json["data"]?.arrayValue else {
        throw broken("gave a page that is not {data, next_cursor}", progress)
      }
      let items = data.compactMap { $0["item"] }
      guard progress.rows + items.count <= limits.rows else {
        throw broken("held more than \(limits.rows) rows", progress)
      }
      let edges = data.flatMap(Self.pageEdges)
      try await store.run { db in
        try db.transaction(durable: false) {
          for item in items { try db.stageFillRow(item.removing("edges")) }
          for edge in edges { try db.stageFillEdge(edge) }
        }
      }
      progress.pages += 1
      progress.rows += items.count
      let next: String
      switch json["next_cursor"] {
      case nil, .null?: return
      case .string(let s)?: next = s
      case let other?: throw broken("gave a next_cursor that is not a string (\(Outcome.quoted(other.text)))", progress)
      }
      guard !next.isEmpty else { throw broken("gave an empty next_cursor", progress) }
      guard next.utf8.count <= limits.cursorBytes else {
        throw broken("gave a next_cursor longer than \(limits.cursorBytes) bytes", progress)
      }
      guard progress.takeCursor(next) else {
        throw broken("gave the cursor \(Outcome.quoted(next)) again, which would read the same pages forever", progress)
      }
      guard progress.pages < limits.pages else {
        throw broken("went on past \(limits.pages) pages", progress)
      }
      pageCursor = next
    }
  }

  /// The edges a page's entry carries (`include=edges`): the contract's `item.edges`, an object
  /// of edge type to `{data: [edge]}`, or a list of edges beside the item.
  static func pageEdges(_ entry: JSONValue) -> [JSONValue] {
    if let byType = entry["item"]?["edges"]?.objectValue {
      return byType.flatMap { _, page in page["data"]?.arrayValue ?? page.arrayValue ?? [] }
    }
    return entry["edges"]?.arrayValue ?? []
  }

  /// Where the copy stream's head stands: its cursor and the read view it certified.
  struct StreamHead {
    var cursor: String
    var readView: String?
  }

  /// Whether `text` is a read view as the contract spells one: 64 lowercase hex digits.
  static func isReadView(_ text: String) -> Bool {
    text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// Reads the head of the copy stream up to its `stream_cursor` frame.
  func readCursor(server: Server, instanceId: String) async throws -> StreamHead {
    let frames: [EventFrame]
    do {
      frames = try await EventStreamReader.read(
        try Self.url(server, "/events", query: "edges=all&copy=1"), key: server.key, lastEventId: nil,
        timeout: server.timeout, proxy: server.proxy, keep: { _ in false },
        // Only a frame that names the cursor can end the head: the others are not parsed.
        done: { $0.event == "stream_cursor" || ($0.data.contains("stream_cursor") && $0.type == "stream_cursor") })
    } catch let failure as EventStreamReader.Failure {
      throw Self.queueError(failure)
    }
    guard let head = frames.last, let cursor = head.json?["cursor"]?.stringValue ?? head.id else {
      throw QueueError.network(message: "the event stream named no cursor")
    }
    if let other = head.json?["instance_id"]?.stringValue, other != instanceId {
      throw QueueError.copyExpired(reason: "instance_changed")
    }
    let readView = head.json?["read_view"]?.stringValue
    if let readView, !Self.isReadView(readView) {
      throw QueueError.contractBroken(
        what: "the event stream named the read view \(Outcome.quoted(readView)), which is not 64 hex digits")
    }
    return StreamHead(cursor: cursor, readView: readView)
  }

  static func queueError(_ failure: EventStreamReader.Failure) -> QueueError {
    switch failure {
    case .transport(let m): return .network(message: m)
    case .status(let s, let m): return .server(status: s, code: nil, message: m)
    case .contract(let served): return .contractMismatch(served: served)
    case .endedEarly: return .network(message: "the event stream ended before it said where it stood")
    }
  }

  /// Catches the copy up from its cursor, applying item events, until the stream is live.
  ///
  /// The replay names the cursor (`Last-Event-ID`) and the read view the fill was certified with
  /// (`X-Marfa-Read-View`); a replay certifying another view expires the copy (`read_view_changed`).
  ///
  /// A `catchup_too_old` frame expires the copy: a drain then throws
  /// `copyExpired(reason: "catchup_too_old")`, and the queue is kept until a fill.
  ///
  /// Returns how many item and edge events it applied.
  @discardableResult
  public func catchUp() async throws -> Int {
    try requireWriter()
    let (_, server) = try client()
    let (cursor, instance, readView) = try await store.run { db in
      try db.requireFilled()
      return (try db.meta(.cursor), try db.meta(.instanceId), try db.meta(.readView))
    }
    guard let cursor else { throw QueueError.noCursor }
    let frames: [EventFrame]
    do {
      frames = try await EventStreamReader.read(
        try Self.url(server, "/events", query: "edges=all&copy=1"), key: server.key, lastEventId: cursor,
        readView: readView, timeout: server.timeout, proxy: server.proxy,
        done: { ["stream_live", "catchup_too_old", "cursor_ahead", "stream_incomplete"].contains($0.type ?? "") })
    } catch let failure as EventStreamReader.Failure {
      throw Self.queueError(failure)
    }
    let last = frames.last
    let expiry: String?
    switch last?.type {
    case "catchup_too_old": expiry = "catchup_too_old"
    case "cursor_ahead": expiry = "cursor_ahead"
    default:
      let named = frames.lazy.compactMap { $0.json?["read_view"]?.stringValue }
      if let other = last?.json?["instance_id"]?.stringValue, let instance, other != instance {
        expiry = "instance_changed"
      } else if let readView, named.contains(where: { $0 != readView }) {
        // The instance no longer certifies the view the copy was filled with.
        expiry = "read_view_changed"
      } else {
        expiry = nil
      }
    }
    if let expiry {
      try await store.run { db in try db.expireCopy(reason: expiry) }
      throw QueueError.copyExpired(reason: expiry)
    }
    if last?.type == "stream_incomplete" {
      throw QueueError.network(message: "the instance could not finish the catch-up")
    }
    let applied = try await store.run { db in
      try db.transaction(durable: false) {
        var newCursor = cursor
        var applied = 0
        for frame in frames {
          // Each row the stream brings, with the writes still pending on it laid back over it.
          if let item = frame.json?["item"], item["id"]?.stringValue != nil {
            try db.takeRowUnderPendingWrites(kind: .item, item)
            applied += 1
          } else if let edge = frame.json?["edge"], edge["id"]?.stringValue != nil {
            try db.takeRowUnderPendingWrites(kind: .edge, edge)
            applied += 1
          }
          if let id = frame.id { newCursor = id }
          if let c = frame.json?["cursor"]?.stringValue { newCursor = c }
        }
        try db.setMeta(.cursor, newCursor)
        return applied
      }
    }
    hub.send(.refreshed(.caughtUp))
    return applied
  }
}
