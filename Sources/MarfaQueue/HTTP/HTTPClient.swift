import CCurl
import FoundationEssentials

/// The HTTP client the drain, the fill and the withdraw speak through: libcurl's multi interface
/// on a thread of its own, HTTP/1.1 kept alive, no redirects followed, the key sent as a bearer
/// token and never kept anywhere else.
///
/// Why libcurl directly and not URLSession (FoundationNetworking, itself on libcurl): when the
/// instance drops a reused keep-alive connection, URLSession resends the request on a fresh
/// connection with its `Content-Length` but without its body, then waits out the whole timeout;
/// an instance that runs the cut request spends the key. Here a request that went out and met a
/// dropped connection fails at once, as the contract's environmental failure, and is never sent
/// again in the same pass (libcurl's own silent resend is refused, ``CurlTransfer/attempt()``);
/// a pooled connection found dead before the request was written is replaced without a word,
/// and the body, copied into the handle, goes whole on the fresh one. Every answer is read
/// within ``ResponseLimits`` and within one overall deadline a trickle cannot extend.
package final class HTTPClient: Sendable {
  /// The contract this client is built for.
  static let contract = "2"

  /// The overall deadline of one request, in seconds (connecting included; a body adds
  /// ``uploadAllowance``).
  package let timeout: TimeInterval
  /// The proxy the person named (nil: none; the environment's proxies are never read).
  package let proxy: String?
  private let driver: CurlDriver

  /// Throws ``TransportError`` when libcurl could not make its transfer loop (out of memory).
  package init(timeout: TimeInterval, proxy: String? = nil) throws {
    self.timeout = timeout
    self.proxy = proxy
    driver = try CurlDriver(name: "verdicts-http")
  }

  deinit { driver.close() }

  /// Ends every request under way and the client's thread; later requests fail at once.
  package func invalidate() { driver.close() }

  /// The client's thread as a task executor: a task that prefers it (`withTaskExecutorPreference`)
  /// sends its requests and reads their answers on that thread, without a hop to another.
  package var executor: any TaskExecutor { driver }

  /// Sends one request; throws ``TransportError`` when no whole answer came.
  package func send(
    _ method: String, _ url: URL, headers: [String: String] = [:], body: [UInt8]? = nil, key: String?
  ) async throws -> HTTPResponse {
    try await start(method, url, headers: headers, body: body, key: key).response()
  }

  /// Starts one request and returns at once; its answer is awaited with
  /// ``InFlightRequest/response()``, so the caller can work while the request is out.
  package func start(
    _ method: String, _ url: URL, headers: [String: String] = [:], body: [UInt8]? = nil, bodyFile: BodyFile? = nil,
    key: String?
  ) throws -> InFlightRequest {
    var lines: [(String, String)] = [("Accept", "application/json")]
    if let key { lines.append(("Authorization", "Bearer \(key)")) }
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
      if let i = lines.firstIndex(where: { $0.0.lowercased() == name.lowercased() }) {
        lines[i] = (name, value)
      } else {
        lines.append((name, value))
      }
    }
    let upload = Double(bodyFile?.size ?? body?.count ?? 0) / Double(Self.uploadAllowance)
    let request = CurlRequest(
      method: method, url: url.absoluteString, headers: lines, body: bodyFile == nil ? body : [], bodyFile: bodyFile,
      deadlineMs: Self.milliseconds(timeout + upload), connectMs: Self.milliseconds(timeout), proxy: proxy)
    let collector = ResponseCollector()
    let easy = try driver.easyHandle()
    let transfer: CurlTransfer
    do {
      transfer = try CurlTransfer(easy: easy, request: request, receiver: collector)
    } catch {
      ccurl_easy_cleanup(easy)
      throw error
    }
    driver.submit(transfer)
    return InFlightRequest(transfer: transfer, collector: collector, driver: driver)
  }

  /// Bytes of request body a second the deadline allows on top of ``timeout``: 1 MiB/s, so a
  /// large upload (a blob) is not cut by a deadline sized for a small JSON write, while a
  /// write's answer (a few KiB) still ends within ``timeout``.
  static let uploadAllowance = 1 << 20

  /// Seconds as whole milliseconds, at least 1 (libcurl reads 0 as "no deadline").
  static func milliseconds(_ seconds: TimeInterval) -> Int {
    max(1, Int((seconds * 1000).rounded(.up)))
  }
}
