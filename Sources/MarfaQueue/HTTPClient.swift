import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One HTTP answer, or the transport failure that stood in for one.
struct HTTPAnswer: Sendable {
  var status: Int
  /// Header values by lowercased name; repeated lines joined with ", ".
  var headers: [String: String]
  var body: [UInt8]

  func header(_ name: String) -> String? { headers[name.lowercased()] }

  /// The body as UTF-8 text, or nil.
  var text: String? { String(validating: body, as: UTF8.self) }

  /// The body as JSON, or nil.
  var json: JSONValue? { JSONValue.parse(body) }
}

/// The HTTP client the drain, the fill and the withdraw speak through: URLSession, no
/// redirects followed, the key sent as a bearer token and never kept anywhere else.
final class HTTPClient: NSObject, Sendable, URLSessionTaskDelegate {
  /// The contract this client is built for.
  static let contract = "2"

  let session: Locked<URLSession?> = Locked(nil)
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
    let s = URLSession(configuration: config, delegate: self, delegateQueue: nil)
    session.withLock { $0 = s }
  }

  /// Ends the session.
  func invalidate() {
    session.withLock { $0?.invalidateAndCancel(); $0 = nil }
  }

  /// Sends one request; throws ``TransportError`` when no answer came.
  func send(
    _ method: String, _ url: URL, headers: [String: String] = [:], body: [UInt8]? = nil, key: String?
  ) async throws -> HTTPAnswer {
    try await start(method, url, headers: headers, body: body, key: key).answer()
  }

  /// Starts one request and returns at once; its answer is awaited with
  /// ``InFlightRequest/answer()``, so the caller can work while the request is out.
  func start(
    _ method: String, _ url: URL, headers: [String: String] = [:], body: [UInt8]? = nil, key: String?
  ) throws -> InFlightRequest {
    guard let session = session.withLock({ $0 }) else { throw TransportError(message: "the client is closed") }
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.timeoutInterval = timeout
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let body { request.httpBody = Data(body) }
    let arrival = OneShot<(Data, URLResponse)>()
    let task = session.dataTask(with: request) { data, response, error in
      if let error {
        arrival.set(.failure(error))
      } else if let response {
        arrival.set(.success((data ?? Data(), response)))
      } else {
        arrival.set(.failure(URLError(.badServerResponse)))
      }
    }
    task.resume()
    return InFlightRequest(task: task, arrival: arrival)
  }

  static func describe(_ error: Error) -> String {
    let ns = error as NSError
    switch ns.code {
    case NSURLErrorTimedOut: return "the request timed out"
    case NSURLErrorCannotConnectToHost: return "the connection was refused"
    case NSURLErrorNetworkConnectionLost: return "the connection was dropped"
    case NSURLErrorCannotFindHost: return "the host could not be found"
    case NSURLErrorNotConnectedToInternet: return "there is no network"
    default: return ns.localizedDescription
    }
  }

  // Redirects are never followed: the 3xx answer comes back as it is.
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}

/// A request on its way (``HTTPClient/start(_:_:headers:body:key:)``).
struct InFlightRequest: @unchecked Sendable {
  let task: URLSessionDataTask
  let arrival: OneShot<(Data, URLResponse)>

  /// Waits for the answer; throws ``TransportError`` when none came.
  ///
  /// Cancelling the waiting task cancels the request, from another queue: FoundationNetworking's
  /// own async `data(for:)` cancels its URLSessionTask inside the Swift task's cancellation
  /// handler, which holds the task's status lock while `cancel()` waits for the session's queue;
  /// if the answer is being delivered on that queue at that moment, the delivery waits for the
  /// same lock, and the process deadlocks (cancelling a drain as its answer arrived hung
  /// `verdicts` that way). Here the handler only schedules the cancel.
  func answer() async throws -> HTTPAnswer {
    let data: Data
    let response: URLResponse
    do {
      let task = self.task
      (data, response) = try await withTaskCancellationHandler {
        try await arrival.value()
      } onCancel: {
        DispatchQueue.global().async { task.cancel() }
      }
    } catch {
      throw TransportError(message: HTTPClient.describe(error))
    }
    guard let http = response as? HTTPURLResponse else { throw TransportError(message: "the answer was not HTTP") }
    var fields: [String: String] = [:]
    for (k, v) in http.allHeaderFields {
      guard let name = (k as? String)?.lowercased(), let value = v as? String else { continue }
      fields[name] = fields[name].map { "\($0), \(value)" } ?? value
    }
    return HTTPAnswer(status: http.statusCode, headers: fields, body: Array(data))
  }
}

/// No answer came: a dropped or refused connection, or a timeout.
struct TransportError: Error {
  var message: String
}

extension HTTPAnswer {
  /// Whether the contract header names exactly this client's contract (repeats of it are fine).
  var namesOurContract: Bool {
    guard let value = header("X-Marfa-Contract") else { return false }
    let parts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    return !parts.isEmpty && parts.allSatisfy { $0 == HTTPClient.contract }
  }

  /// Whether any contract header came.
  var namesAContract: Bool { header("X-Marfa-Contract") != nil }

  /// `Retry-After` in whole seconds, when given as a number.
  var retryAfterSeconds: Int? {
    guard let v = header("Retry-After")?.trimmingCharacters(in: .whitespaces), let n = Int(v), n >= 0 else { return nil }
    return n
  }

  /// The start of the body where it is text: `text/*` or JSON, or no content type and valid UTF-8.
  var failureText: String? {
    guard !body.isEmpty else { return nil }
    let type = header("Content-Type")?.lowercased()
    let isText: Bool
    if let type {
      isText = type.hasPrefix("text/") || type.contains("json")
    } else {
      isText = true
    }
    guard isText else { return nil }
    // Decode no more than needed: 200 scalars need at most 800 bytes, plus slack for a cut sequence.
    var slice = Array(body.prefix(4096))
    var text = String(validating: slice, as: UTF8.self)
    // A cut inside the last character is not a reason to call the body binary.
    while text == nil, body.count > 4096, slice.count > 4092 {
      slice.removeLast()
      text = String(validating: slice, as: UTF8.self)
    }
    if text == nil, type != nil { text = String(decoding: slice, as: UTF8.self) }
    guard let text else { return nil }
    return LastFailure.cut(text)
  }
}
