import Foundation

/// A Marfa instance on 127.0.0.1 that answers as scripted, over real HTTP/1.1.
///
/// It holds an in-memory model (items with versions and merges, edges, metadata, blobs, an event log),
/// idempotency records, script rules, accepted keys, and a record of every request. Every member is safe to
/// call from any thread.
///
/// ```swift
/// let instance = ScriptedInstance(scenario: .tour)
/// let url = try instance.start()          // http://127.0.0.1:<port>
/// instance.addRule(.once(.write("x"), .drop))
/// defer { instance.stop() }
/// ```
public final class ScriptedInstance: @unchecked Sendable {
  /// The contract this instance speaks, sent as `X-Marfa-Contract` on its own answers.
  public static let contract = "2"
  /// The read view named in stream frames and echoed on certified reads.
  public static let readView = String(repeating: "a", count: 64)

  /// A rule with how many of its answers were given.
  struct ActiveRule {
    var rule: ScriptRule
    var used = 0
  }

  let lock = NSLock()
  private var server: HTTPServer?
  private let requestedPort: UInt16
  /// The scenario the instance was loaded with (its writes are for a client to queue).
  public let scenario: Scenario

  // Everything below is guarded by `lock`.
  var model: MarfaModel
  var rules: [ActiveRule]
  var records: [String: IdempotencyRecord] = [:]
  var applied: [String: Int] = [:]
  var recorded: [RecordedRequest] = []
  var unscriptedSeqs: [Int] = []
  var pendingEdits: [ConcurrentEdit]
  var keys: Set<String>?
  var currentInstanceId: String

  /// An instance loaded with `scenario`, to listen on `port` (0: an ephemeral port) once started.
  public init(scenario: Scenario = .empty, port: UInt16 = 0) {
    self.scenario = scenario
    self.requestedPort = port
    self.model = Self.model(of: scenario)
    self.rules = scenario.rules.map { ActiveRule(rule: $0) }
    self.pendingEdits = scenario.concurrentEdits
    self.keys = scenario.acceptedKeys
    self.currentInstanceId = scenario.instanceId
  }

  deinit { server?.close() }

  private static func model(of scenario: Scenario) -> MarfaModel {
    var model = MarfaModel(types: scenario.types)
    for item in scenario.items { model.seed(item) }
    for edge in scenario.edges { model.seed(edge) }
    return model
  }

  // MARK: Listening

  /// Starts listening and returns the base URL, `http://127.0.0.1:<port>`; a second call returns the same URL.
  @discardableResult
  public func start() throws -> URL {
    let server = lock.withLock {
      if let server = self.server { return server }
      let server = HTTPServer(port: requestedPort) { [weak self] request in
        self?.handle(request) ?? .drop
      }
      self.server = server
      return server
    }
    let port = try server.listen()
    return URL(string: "http://127.0.0.1:\(port)")!
  }

  /// Closes the listener and every connection, and waits for their threads to end.
  public func stop() {
    lock.withLock { server }?.close()
  }

  /// Closes the port and every connection: a client now meets a refused connection.
  public func offline() {
    lock.withLock { server }?.close()
  }

  /// Opens the same port again after `offline()`.
  public func online() throws {
    guard let server = lock.withLock({ server }) else { throw InstanceError.notStarted }
    try server.listen()
  }

  /// The base URL while listening or after, or nil before the first `start()`.
  public var url: URL? {
    guard let server = lock.withLock({ server }), server.port != 0 else { return nil }
    return URL(string: "http://127.0.0.1:\(server.port)")
  }

  /// The listening server's live threads and open descriptors (0 and 0 once stopped).
  var activity: (threads: Int, descriptors: Int) {
    guard let server = lock.withLock({ server }) else { return (0, 0) }
    return (server.activity.threads, server.activity.descriptors)
  }

  // MARK: Identity and keys

  /// The instance id `GET /` and stream frames name.
  public var instanceId: String { lock.withLock { currentInstanceId } }

  /// Becomes another instance at the same address: `GET /` and frames name `id`; without `keepData`,
  /// every row, event, blob and idempotency record is dropped (the scenario's types stay).
  public func switchInstance(to id: String, keepData: Bool) {
    lock.withLock { becomeInstance(id, keepData: keepData) }
  }

  /// `switchInstance(to:keepData:)` with the lock held.
  func becomeInstance(_ id: String, keepData: Bool) {
    currentInstanceId = id
    if !keepData {
      model = MarfaModel(types: scenario.types)
      records = [:]
      applied = [:]
      pendingEdits = []
    }
  }

  /// The accepted API keys; nil accepts any key (or none). A refused key is answered `401 unauthorized`.
  public var acceptedKeys: Set<String>? {
    get { lock.withLock { keys } }
    set { lock.withLock { keys = newValue } }
  }

  // MARK: Scripts

  /// Adds a rule after the others.
  public func addRule(_ rule: ScriptRule) {
    lock.withLock { rules.append(ActiveRule(rule: rule)) }
  }

  /// Adds rules after the others, in order.
  public func addRules(_ newRules: [ScriptRule]) {
    lock.withLock { rules += newRules.map { ActiveRule(rule: $0) } }
  }

  /// Drops every rule: the model answers everything.
  public func clearRules() {
    lock.withLock { rules = [] }
  }

  // MARK: Records

  /// Every request received, in order (control doors under `/_scripted/` excepted).
  public var requests: [RecordedRequest] { lock.withLock { recorded } }

  /// The requests that reached no door and were answered `501 not_scripted`.
  public var unscriptedRequests: [RecordedRequest] {
    lock.withLock { recorded.filter { unscriptedSeqs.contains($0.seq) } }
  }

  /// Forgets the requests recorded so far.
  public func clearRequests() {
    lock.withLock {
      recorded = []
      unscriptedSeqs = []
    }
  }

  /// The idempotency records, by key.
  public var idempotencyRecords: [String: IdempotencyRecord] { lock.withLock { records } }

  /// How many times the model applied a write sent under `key` (a replay applies nothing): 1 when exactly once.
  public func appliedCount(key: String) -> Int { lock.withLock { applied[key] ?? 0 } }

  /// The number of applications per idempotency key.
  public var appliedWrites: [String: Int] { lock.withLock { applied } }

  // MARK: Model

  /// `{item, metadata}` of an item as the model holds it (trashed rows included), or nil.
  public func item(_ id: String) -> ScriptedJSON? { lock.withLock { model.items[id]?.withMetadata } }

  /// The ids of every item held, in creation order.
  public var itemIds: [String] { lock.withLock { model.items.values.sorted { $0.seq < $1.seq }.map(\.id) } }

  /// An edge as the model holds it, or nil.
  public func edge(_ id: String) -> ScriptedJSON? { lock.withLock { model.edges[id]?.json } }

  /// Adds (or replaces) an item, version history included.
  public func seed(_ item: SeedItem) { lock.withLock { model.seed(item) } }

  /// Another writer edits an item now; false when no such item is held.
  @discardableResult
  public func edit(_ edit: ConcurrentEdit) -> Bool { lock.withLock { model.edit(edit) } }

  /// The cursor of the newest event.
  public var eventCursor: String { lock.withLock { String(model.headCursor) } }

  /// Forgets every event so far: a catch-up from any earlier cursor is answered `catchup_too_old`.
  public func forgetEvents() { lock.withLock { model.forgetEvents(before: model.headCursor) } }

  /// Forgets the events before `cursor`: a catch-up from an earlier cursor is answered `catchup_too_old`.
  public func forgetEvents(before cursor: String) {
    lock.withLock { model.forgetEvents(before: Int(cursor) ?? 0) }
  }
}
