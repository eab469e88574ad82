import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The baseline: the HTTP client stack the drain speaks through, with no queue behind it.
///
/// MarfaQueue's `HTTPClient` is internal and no public call sends one request, so this is a copy
/// of it configured the same way: an ephemeral URLSession, the same timeouts, at most 4
/// connections per host, no cache, no cookies, redirects not followed; the same headers
/// (`Accept`, `Authorization: Bearer`, `Content-Type`, `Idempotency-Key`); the answer's headers
/// folded into a dictionary as the drain's client does. Requests go one at a time, each awaiting
/// its answer, as the drain sends them.
final class BaselineClient: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  private var session: URLSession!
  let timeout: TimeInterval

  init(timeout: TimeInterval) {
    self.timeout = timeout
    super.init()
    let config = URLSessionConfiguration.ephemeral
    config.timeoutIntervalForRequest = timeout
    config.timeoutIntervalForResource = timeout * 2
    config.httpMaximumConnectionsPerHost = 4
    config.requestCachePolicy = .reloadIgnoringLocalCacheData
    config.urlCache = nil
    config.httpCookieStorage = nil
    session = URLSession(configuration: config, delegate: self, delegateQueue: nil)
  }

  func invalidate() { session.invalidateAndCancel() }

  /// Sends one request and returns its status and folded headers, as the drain's client does.
  func send(
    _ method: String, _ url: URL, headers: [String: String], body: [UInt8]?, key: String?
  ) async throws -> (status: Int, headers: [String: String], body: [UInt8]) {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.timeoutInterval = timeout
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let body { request.httpBody = Data(body) }
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse else { throw BenchFailure(message: "the answer was not HTTP") }
    var fields: [String: String] = [:]
    for (k, v) in http.allHeaderFields {
      guard let name = (k as? String)?.lowercased(), let value = v as? String else { continue }
      fields[name] = fields[name].map { "\($0), \(value)" } ?? value
    }
    return (http.statusCode, fields, Array(data))
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
