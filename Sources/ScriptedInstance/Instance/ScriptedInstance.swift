import FoundationEssentials
import MarfaWire

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
public final class ScriptedInstance: Sendable {
  /// The contract this instance speaks, sent as `X-Marfa-Contract` on its own answers.
  public static let contract = "2"
  /// The read view named in stream frames and echoed on certified reads.
  package static let readView = String(repeating: "a", count: 64)

  /// The server, once started.
  private let server = Mutex<HTTPServer?>(nil)
  private let requestedPort: UInt16
  /// The scenario the instance was loaded with (its writes are for a client to queue).
  public let scenario: Scenario
  /// The model, rules, records and keys: every request is answered with it held.
  let state: Mutex<InstanceState>

  /// An instance loaded with `scenario`, to listen on `port` (0: an ephemeral port) once started.
  public init(scenario: Scenario = .empty, port: UInt16 = 0) {
    self.scenario = scenario
    self.requestedPort = port
    self.state = Mutex(InstanceState(scenario: scenario))
    state.withLock { s in
      s.follow = { [weak self] position in self?.state.withLock { $0.framesSince(position) } ?? [] }
    }
  }

  deinit { server.withLock { $0 }?.close() }

  /// How long each write request (any method but GET) waits before it is answered, in
  /// seconds: a slow link or a busy instance, so a drain takes long enough to be watched.
  public var writeDelay: Double {
    get { delay.withLock { $0 } }
    set { delay.withLock { $0 = newValue } }
  }
  private let delay = Mutex<Double>(0)

  /// Answers one request with the state held (after ``writeDelay`` for a write, the state not held).
  func handle(_ request: HTTPRequest) -> HTTPReply {
    let wait = request.method == "GET" ? 0 : writeDelay
    if wait > 0 { DetachedThread.sleep(seconds: wait) }
    return state.withLock { $0.handle(request) }
  }

  // MARK: Listening

  /// Starts listening and returns the base URL, `http://127.0.0.1:<port>`; a second call returns the same URL.
  @discardableResult
  public func start() throws -> URL {
    let requestedPort = self.requestedPort
    let server = self.server.withLock { current in
      if let server = current { return server }
      let server = HTTPServer(port: requestedPort) { [weak self] request in
        self?.handle(request) ?? .drop
      }
      current = server
      return server
    }
    let port = try server.listen()
    return URL(string: "http://127.0.0.1:\(port)")!
  }

  /// Closes the listener and every connection, and waits for their threads to end.
  public func stop() {
    server.withLock { $0 }?.close()
  }

  /// Closes the port and every connection: a client now meets a refused connection.
  package func offline() {
    server.withLock { $0 }?.close()
  }

  /// Opens the same port again after `offline()`.
  package func online() throws {
    guard let server = server.withLock({ $0 }) else { throw InstanceError.notStarted }
    try server.listen()
  }

  /// The base URL while listening or after, or nil before the first `start()`.
  public var url: URL? {
    guard let server = server.withLock({ $0 }), server.port != 0 else { return nil }
    return URL(string: "http://127.0.0.1:\(server.port)")
  }

  /// The listening server's live threads and open descriptors (0 and 0 once stopped).
  var activity: (threads: Int, descriptors: Int) {
    guard let server = server.withLock({ $0 }) else { return (0, 0) }
    return (server.activity.threads, server.activity.descriptors)
  }

  // MARK: Identity and keys

  /// The instance id `GET /` and stream frames name.
  public var instanceId: String { state.withLock { $0.currentInstanceId } }

  /// Becomes another instance at the same address: `GET /` and frames name `id`; without `keepData`,
  /// every row, event, blob and idempotency record is dropped (the scenario's types stay).
  public func switchInstance(to id: String, keepData: Bool) {
    state.withLock { $0.becomeInstance(id, keepData: keepData) }
  }

  /// The accepted API keys; nil accepts any key (or none). A refused key is answered `401 unauthorized`.
  package var acceptedKeys: Set<String>? {
    get { state.withLock { $0.keys } }
    set { state.withLock { $0.keys = newValue } }
  }

  // MARK: Scripts

  /// Adds a rule after the others.
  package func addRule(_ rule: ScriptRule) {
    state.withLock { $0.rules.append(InstanceState.ActiveRule(rule: rule)) }
  }

  /// Adds rules after the others, in order.
  package func addRules(_ newRules: [ScriptRule]) {
    state.withLock { $0.rules += newRules.map { InstanceState.ActiveRule(rule: $0) } }
  }

  /// Drops every rule: the model answers everything.
  package func clearRules() {
    state.withLock { $0.rules = [] }
  }

  // MARK: Records

  /// Every request received, in order (control endpoints under `/_scripted/` excepted).
  public var requests: [RecordedRequest] { state.withLock { $0.recorded } }

  /// The requests that reached no endpoint and were answered `501 not_scripted`.
  package var unscriptedRequests: [RecordedRequest] {
    state.withLock { s in s.recorded.filter { s.unscriptedSeqs.contains($0.seq) } }
  }

  /// Forgets the requests recorded so far.
  package func clearRequests() {
    state.withLock { s in
      s.recorded = []
      s.unscriptedSeqs = []
    }
  }

  /// The idempotency records, by key.
  package var idempotencyRecords: [String: IdempotencyRecord] { state.withLock { $0.records } }

  /// How many times the model applied a write sent under `key` (a replay applies nothing): 1 when exactly once.
  package func appliedCount(key: String) -> Int { state.withLock { $0.applied[key] ?? 0 } }

  /// The number of applications per idempotency key.
  package var appliedWrites: [String: Int] { state.withLock { $0.applied } }

  // MARK: Model

  /// `{item, metadata}` of an item as the model holds it (trashed rows included), or nil.
  public func item(_ id: String) -> ScriptedJSON? { state.withLock { $0.model.items[id]?.withMetadata } }

  /// The ids of every item held, in creation order.
  package var itemIds: [String] { state.withLock { $0.model.items.values.sorted { a, b in a.seq < b.seq }.map(\.id) } }

  /// An edge as the model holds it, or nil.
  public func edge(_ id: String) -> ScriptedJSON? { state.withLock { $0.model.edges[id]?.json } }

  /// Adds (or replaces) an item, version history included.
  package func seed(_ item: SeedItem) { state.withLock { $0.model.seed(item) } }

  /// Another writer edits an item now; false when no such item is held.
  @discardableResult
  public func edit(_ edit: ConcurrentEdit) -> Bool { state.withLock { $0.model.edit(edit) } }

  /// The cursor of the newest event.
  package var eventCursor: String { state.withLock { String($0.model.headCursor) } }

  /// Forgets every event so far: a catch-up from any earlier cursor is answered `catchup_too_old`.
  package func forgetEvents() { state.withLock { s in s.model.forgetEvents(before: s.model.headCursor) } }

  /// Forgets the events before `cursor`: a catch-up from an earlier cursor is answered `catchup_too_old`.
  package func forgetEvents(before cursor: String) {
    state.withLock { $0.model.forgetEvents(before: Int(cursor) ?? 0) }
  }
}
