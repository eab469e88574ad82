/// One request as a ``RawServer`` received it.
public struct RawRequestRecord: Sendable, CustomStringConvertible {
  /// Which connection it came on (0 for the first accepted), and its place on that connection.
  public var connection: Int
  public var indexOnConnection: Int
  public var method: String
  public var path: String
  /// Header values by lowercased name.
  public var headers: [String: String]
  /// What `Content-Length` promised (0 when absent).
  public var contentLength: Int
  /// How many body bytes arrived.
  public var bodyReceived: Int
  /// Whether the server stopped reading on purpose before the whole body (the test's own cut).
  public var cutByServer: Bool

  /// Whether the request reached the server short of its `Content-Length`, by the client's doing.
  public var arrivedShort: Bool { !cutByServer && bodyReceived < contentLength }

  public var description: String {
    "\(method) \(path) on connection \(connection) #\(indexOnConnection): body \(bodyReceived)/\(contentLength)"
      + (cutByServer ? " (cut by the server)" : "")
  }
}
