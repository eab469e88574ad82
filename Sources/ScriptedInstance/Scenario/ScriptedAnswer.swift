/// One scripted answer: what kind, and how its contract header, `Retry-After` and other headers are set.
public struct ScriptedAnswer: Sendable, Hashable {
  /// What the instance does with the request.
  public enum Kind: Sendable, Hashable {
    /// The in-memory model answers as it would unscripted.
    case normal
    /// The connection is closed without an answer.
    case drop
    /// No answer ever comes; the connection is held until the client gives up or the instance stops.
    case stall
    /// This status and body (`contentType` nil: no `Content-Type` header).
    case reply(status: Int, body: String, contentType: String?)
    /// This status and these exact bytes as the body (not necessarily UTF-8; `contentType` nil: no header).
    case replyBytes(status: Int, body: [UInt8], contentType: String?)
    /// `409 version_conflict`, naming the item's current row as the model holds it.
    case versionConflict
    /// `409 ancestor_unavailable`, naming the item's current row and the version the request gave.
    case ancestorUnavailable
    /// The root (`GET /` shape) naming another instance id.
    case otherInstance(String)
    /// Another writer's edit lands first, then the model answers as it would unscripted: a write
    /// made while the device was between two requests (a fill's pages and its replay).
    case editFirst(ConcurrentEdit)
  }

  /// How the answer's `X-Marfa-Contract` header is set.
  public enum ContractHeader: Sendable, Hashable {
    /// `X-Marfa-Contract: 2`, as the instance gives on every answer of its own.
    case standard
    /// No header: a gateway's or proxy's answer.
    case absent
    /// One header line per value (`["3"]` another contract, `["2", "3"]` two differing lines).
    case values([String])
  }

  /// What the instance does.
  public var kind: Kind
  /// The contract header.
  public var contract: ContractHeader
  /// A `Retry-After` header in seconds, if any.
  package var retryAfter: Int?
  /// Other headers to add.
  public var headers: [String: String]

  /// An answer of `kind` with the standard contract header.
  public init(
    _ kind: Kind, contract: ContractHeader = .standard, retryAfter: Int? = nil, headers: [String: String] = [:]
  ) {
    self.kind = kind
    self.contract = contract
    self.retryAfter = retryAfter
    self.headers = headers
  }
}
