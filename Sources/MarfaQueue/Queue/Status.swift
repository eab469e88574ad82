/// Whether this process writes the store or only reads it.
public enum Handle: Sendable, Codable, Hashable {
  /// This process holds the writer role.
  case writer
  /// This process only reads; the reason says why.
  case reader(reason: String)

  /// Whether this is the writer.
  public var isWriter: Bool { self == .writer }
}

/// Where the copy's fill stands.
public enum FillState: String, Sendable, Codable, Hashable {
  /// Never filled: writes are taken and queued, a drain throws `noCursor`.
  case never
  /// A fill is under way or was interrupted: a drain throws `hydrationIncomplete`.
  case underway
  /// Filled and current.
  case complete
  /// The copy expired; a fill refills it.
  case expired
}

/// The instance to talk to, and the key to talk with.
public struct Server: Sendable, Hashable {
  /// The instance's origin, e.g. `http://127.0.0.1:8080`.
  public var url: URLString
  /// The API key; never stored, logged or shown.
  public var key: String?
  /// How long one request may take before it counts as a timeout, in seconds.
  public var timeout: Double
  /// The proxy every request goes through, as the person named it (`--proxy`); nil: none. A
  /// proxy named in the environment (`http_proxy`, `ALL_PROXY`, …) is never used: the key goes
  /// only where the person said.
  public var proxy: URLString?

  /// Creates a server.
  public init(url: URLString, key: String?, timeout: Double = 10, proxy: URLString? = nil) {
    self.url = url
    self.key = key
    self.timeout = timeout
    self.proxy = proxy
  }

  /// Whether sending the key here goes in the clear to another machine: plain http to a host
  /// whose address is not loopback (127.0.0.0/8, ::1), judged by the address the name resolves
  /// to, never by its spelling (`127.attacker.example` is another machine); a name that does not
  /// resolve counts as another machine.
  public var sendsKeyInClear: Bool {
    guard key != nil, Self.scheme(of: url) == "http" else { return false }
    return !LoopbackHost.isLoopback(host: Server.host(of: url))
  }

  /// Whether the key goes in the clear to the proxy: a proxy named, spoken to over plain http
  /// (or with no scheme, which libcurl reads as http), that is not on this machine.
  public var sendsKeyInClearToProxy: Bool {
    guard key != nil, let proxy else { return false }
    let scheme = Self.scheme(of: proxy)
    guard scheme == nil || scheme == "http" else { return false }
    return !LoopbackHost.isLoopback(host: Server.host(of: proxy))
  }

  /// Why a request cannot go to this server, found before anything is written: a URL that is
  /// not http(s) (the scheme compared without case), or a key that holds a control character
  /// (a line break would end the header it goes in). Nil: nothing stands in the way.
  public var refusal: String? {
    guard let scheme = Self.scheme(of: url), scheme == "http" || scheme == "https" else {
      return "not an http(s) URL: \(url)"
    }
    if let key, key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      return "the key holds a line break or another control character, so it cannot be sent"
    }
    return nil
  }

  /// The URL's scheme, lowercased (schemes are case-insensitive), or nil when it has none.
  static func scheme(of url: String) -> String? {
    guard let r = url.firstRange(of: "://") else { return nil }
    return url[..<r.lowerBound].lowercased()
  }

  static func host(of url: String) -> String {
    var rest = Substring(url)
    if let r = rest.firstRange(of: "://") { rest = rest[r.upperBound...] }
    if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
    if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
    if rest.hasPrefix("[") { return String(rest.prefix(while: { $0 != "]" })) + "]" }
    if let colon = rest.lastIndex(of: ":") { rest = rest[..<colon] }
    return rest.lowercased()
  }
}

/// A URL as the person gave it.
public typealias URLString = String

/// The copy and the queue at a glance.
public struct Status: Sendable, Codable, Hashable {
  /// The store's path.
  public var store: String
  /// Whether this process writes the store or only reads it.
  public var handle: Handle
  /// How far the copy's fill got.
  public var fill: FillState
  /// Why the copy expired, when it did.
  public var expiredReason: String?
  /// The instance's URL the copy was filled from.
  public var origin: String?
  /// The id of the instance the copy was filled from.
  public var instanceId: String?
  /// The event cursor a catch-up reads from.
  public var cursor: String?
  /// How many writes each pane holds.
  public var counts: QueueCounts
  /// The last drain's report, as this store kept it.
  public var lastDrain: DrainReport?
  /// When the last drain ended (ISO-8601).
  public var lastDrainAt: String?
  /// Which program's store this is: this project's (read and written) or the Marfa core's (read only).
  public var kind: StoreKind = .verdicts(schemaVersion: StoreSchema.version)
  /// Who holds the writer role and what it is doing (``WorkingCopy/writer()``), when known.
  public var writer: WriterRecord?
  /// The first number out of range the store's connection read so far (``StoreDamage``).
  public var damage: StoreDamage?
  /// How many of the answered writes were refused (nil: the store was not asked).
  public var refused: Int?

  /// Creates a status.
  public init(
    store: String, handle: Handle, fill: FillState, expiredReason: String? = nil, origin: String? = nil,
    instanceId: String? = nil, cursor: String? = nil, counts: QueueCounts = QueueCounts(),
    lastDrain: DrainReport? = nil, lastDrainAt: String? = nil, writer: WriterRecord? = nil
  ) {
    self.writer = writer
    self.store = store
    self.handle = handle
    self.fill = fill
    self.expiredReason = expiredReason
    self.origin = origin
    self.instanceId = instanceId
    self.cursor = cursor
    self.counts = counts
    self.lastDrain = lastDrain
    self.lastDrainAt = lastDrainAt
  }
}
