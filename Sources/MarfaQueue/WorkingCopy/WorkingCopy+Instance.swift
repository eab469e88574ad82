import FoundationEssentials

/// Talking to the instance: the client, the root, item reads.
extension WorkingCopy {
  /// The client for the current server (one per copy, made on first use).
  func client() throws -> (HTTPClient, Server) {
    guard let server = self.server else { throw QueueError.noServer }
    // Refused before the caller writes anything (a fill's "under way", a drain's record).
    if let refusal = server.refusal { throw QueueError.invalid(message: refusal) }
    // Room to say so if libcurl runs out of memory (``MemoryReserve``).
    MemoryReserve.hold()
    if let problem = CurlLibrary.problem { throw QueueError.network(message: problem) }
    let client = try clientBox.withLock { box -> HTTPClient in
      if let c = box, c.timeout == server.timeout, c.proxy == server.proxy { return c }
      let c: HTTPClient
      do {
        c = try HTTPClient(timeout: server.timeout, proxy: server.proxy)
      } catch let e as TransportError {
        throw QueueError.network(message: e.message)
      }
      box?.invalidate()
      box = c
      return c
    }
    return (client, server)
  }

  /// The full URL of a path on the server.
  static func url(_ server: Server, _ path: String, query: String? = nil) throws -> URL {
    var text = server.url.hasSuffix("/") ? String(server.url.dropLast()) : server.url
    text += path
    if let query { text += "?" + query }
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
    else {
      throw QueueError.invalid(message: "not an http(s) URL: \(server.url)")
    }
    return url
  }

  /// What the root says: which instance is there.
  struct Root: Sendable {
    var instanceId: String
    var contract: String?
  }

  /// Reads `GET /` without the key (the root is public, and the key goes to no instance before
  /// its contract is known); a network failure throws ``QueueError/network(message:)``. A root
  /// whose `contract` names another contract, or none, is refused
  /// ``QueueError/rootContractMismatch(served:instance:)``, as is one whose header does.
  func readRoot() async throws -> Root {
    let (client, server) = try client()
    let response: HTTPResponse
    do {
      response = try await client.send("GET", try Self.url(server, "/"), key: nil)
    } catch let e as TransportError {
      noteReachable(false)
      throw QueueError.network(message: e.message)
    }
    // A redirect is never followed, whoever sent it: the key would go where it points.
    if (300..<400).contains(response.status) {
      throw QueueError.redirected(status: response.status, location: response.header("Location"), instance: server.url)
    }
    if !response.namesAContract && !(200..<300).contains(response.status) {
      noteReachable(false)
      throw QueueError.network(
        message: "the root answered \(response.status) and named no contract (a proxy or gateway)")
    }
    guard response.namesOurContract else {
      throw QueueError.rootContractMismatch(served: response.header("X-Marfa-Contract"), instance: server.url)
    }
    guard (200..<300).contains(response.status) else {
      if HTTPStatus.isEnvironmental(response.status) {
        noteReachable(false)
        throw QueueError.network(message: "the root answered \(response.status)")
      }
      let err = response.json?["error"]
      throw QueueError.server(
        status: response.status, code: err?["code"]?.stringValue, message: err?["message"]?.stringValue)
    }
    let named = response.json?["contract"]
    guard let named, Self.isOurContract(named) else {
      throw QueueError.rootContractMismatch(served: named.map(Self.contractText), instance: server.url)
    }
    guard let id = response.json?["instance_id"]?.stringValue, !id.isEmpty else {
      throw QueueError.network(message: "the root did not say which instance it is")
    }
    noteReachable(true)
    return Root(instanceId: id, contract: response.header("X-Marfa-Contract"))
  }

  /// Whether a root's `contract` names this client's: the integer itself (or its decimal text).
  static func isOurContract(_ value: JSONValue) -> Bool {
    if let n = value.intValue { return String(n) == HTTPClient.contract }
    return value.stringValue == HTTPClient.contract
  }

  /// A root's `contract` as the refusal names it.
  static func contractText(_ value: JSONValue) -> String {
    value.intValue.map(String.init) ?? value.stringValue ?? "null"
  }

  /// Tells the streams when reachability changes.
  func noteReachable(_ reachable: Bool) {
    let changed = reachability.withLock { r -> Bool in
      defer { r = reachable }
      return r != reachable
    }
    if changed { hub.send(reachable ? .serverReachable : .serverUnreachable) }
  }

  /// The outcome of reading one row back from the instance.
  enum RowRead: Sendable {
    case row(JSONValue)
    case absent
  }

  /// Reads an item (or edge) row: `GET /items/{id}?include=metadata`.
  ///
  /// - Throws: ``QueueError/network(message:)`` when it could not be read for the network's reasons.
  func readRow(kind: RowKind, id: String) async throws -> RowRead {
    var wait: Int?
    return try await readRow(kind: kind, id: id, retryAfter: &wait)
  }

  /// ``readRow(kind:id:)``, passing on the wait (`Retry-After`, whole seconds) its answer asked
  /// for, whoever gave it: the drain's report passes the longest on.
  func readRow(kind: RowKind, id: String, retryAfter: inout Int?) async throws -> RowRead {
    let (client, server) = try client()
    let encoded =
      id.percentEncoded(keeping: PercentEncodingSet.pathAllowed.subtracting("/?#"))
    let url =
      kind == .edge
      ? try Self.url(server, "/edges/\(encoded)")
      : try Self.url(server, "/items/\(encoded)", query: "include=metadata")
    let response: HTTPResponse
    do {
      response = try await client.send("GET", url, key: server.key)
    } catch let e as TransportError {
      throw QueueError.network(message: e.message)
    }
    retryAfter = response.retryAfterSeconds
    guard response.namesAContract else {
      throw QueueError.network(message: "the read was answered \(response.status) without naming a contract")
    }
    guard response.namesOurContract else {
      throw QueueError.contractMismatch(served: response.header("X-Marfa-Contract"))
    }
    if HTTPStatus.isEnvironmental(response.status) {
      throw QueueError.network(message: "the read was answered \(response.status)")
    }
    if response.status == 404 || response.status == 403
      || (response.status == 400 && response.json?["error"]?["code"]?.stringValue == "invalid_id")
    {
      return .absent
    }
    guard (200..<300).contains(response.status), let json = response.json,
      let row = kind == .edge ? (json["edge"] ?? json) : json["item"]
    else {
      let err = response.json?["error"]
      throw QueueError.server(
        status: response.status, code: err?["code"]?.stringValue,
        message: err?["message"]?.stringValue ?? "the row could not be read")
    }
    // The response must be about the row read, and say one thing: else nothing of it is taken.
    if let name = json.repeatedMemberName() {
      throw QueueError.contractBroken(
        what:
          "the read of \(kind) \(Outcome.quoted(id)) was answered ambiguously (the member \(Outcome.quoted(name)) twice)"
      )
    }
    guard row["id"]?.stringValue == id else {
      let named = row["id"]?.stringValue.map(Outcome.quoted) ?? "no id"
      throw QueueError.contractBroken(
        what: "the read of \(kind) \(Outcome.quoted(id)) was answered with \(named), another row; it was not taken")
    }
    return .row(row)
  }
}
