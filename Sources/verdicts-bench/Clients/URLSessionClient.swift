import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// URLSession (FoundationNetworking), configured as MarfaQueue's client was before it moved to
/// libcurl: kept in the bench so the two clients are measured side by side on the same requests.
///
/// An ephemeral session, at most 4 connections per host, no cache, no cookies, redirects not
/// followed; the same headers (`Accept`, `Authorization: Bearer`, `Content-Type`,
/// `Idempotency-Key`); the answer delivered through a completion handler and its headers folded
/// into a dictionary, as the old client did. Requests go one at a time, each awaiting its answer.
final class URLSessionClient: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  /// How the answer comes back from URLSession.
  enum Delivery {
    /// `dataTask(with:completionHandler:)`, as the old URLSession client received it (its
    /// async `data(for:)` can deadlock FoundationNetworking when the waiting task is cancelled).
    case completionHandler
    /// URLSession's async `data(for:)`, which skips the session's delegate queue: not the
    /// old client's path.
    case asyncData
  }

  private var session: URLSession!
  let timeout: TimeInterval
  let delivery: Delivery

  init(timeout: TimeInterval, delivery: Delivery = .completionHandler) {
    self.timeout = timeout
    self.delivery = delivery
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

  /// Sends one request and returns its status and folded headers, as the old client did.
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
    let data: Data
    let response: URLResponse
    switch delivery {
    case .asyncData:
      (data, response) = try await session.data(for: request)
    case .completionHandler:
      let session = self.session!
      (data, response) = try await withCheckedThrowingContinuation { continuation in
        session.dataTask(with: request) { data, response, error in
          if let error {
            continuation.resume(throwing: error)
          } else if let response {
            continuation.resume(returning: (data ?? Data(), response))
          } else {
            continuation.resume(throwing: URLError(.badServerResponse))
          }
        }.resume()
      }
    }
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
