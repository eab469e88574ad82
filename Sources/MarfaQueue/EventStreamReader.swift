import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One server-sent event frame.
struct EventFrame: Sendable {
  var id: String?
  var event: String?
  var data: String
  /// The frame's data as JSON, or nil.
  var json: JSONValue? { JSONValue.parse(data) }
  /// `event_type` from the data, else the `event:` line.
  var type: String? { json?["event_type"]?.stringValue ?? event }
}

/// Reads `/events` incrementally (FoundationNetworking has no `bytes(for:)` on Linux): frames
/// are parsed as their bytes arrive, and the stream is cancelled once `done` says so.
final class EventStreamReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private var buffer: [UInt8] = []
  private var frames: [EventFrame] = []
  private var status: Int?
  private var contractOK = false
  private var continuation: CheckedContinuation<[EventFrame], Error>?
  private var finished = false
  private let done: @Sendable (EventFrame) -> Bool

  /// What went wrong before the stream said enough.
  enum Failure: Error {
    case transport(String)
    case status(Int, String?)
    case contract(String?)
    case endedEarly
  }

  init(done: @escaping @Sendable (EventFrame) -> Bool) {
    self.done = done
  }

  /// Opens the stream and returns its frames up to and including the one `done` accepts.
  static func read(
    _ url: URL, key: String?, lastEventId: String?, timeout: TimeInterval, done: @escaping @Sendable (EventFrame) -> Bool
  ) async throws -> [EventFrame] {
    let reader = EventStreamReader(done: done)
    let config = URLSessionConfiguration.ephemeral
    config.timeoutIntervalForRequest = timeout
    config.timeoutIntervalForResource = timeout * 6
    let session = URLSession(configuration: config, delegate: reader, delegateQueue: nil)
    defer { session.invalidateAndCancel() }
    var request = URLRequest(url: url)
    request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
    if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
    if let lastEventId { request.setValue(lastEventId, forHTTPHeaderField: "Last-Event-ID") }
    let task = session.dataTask(with: request)
    return try await withCheckedThrowingContinuation { c in
      reader.lock.lock()
      reader.continuation = c
      reader.lock.unlock()
      task.resume()
    }
  }

  private func finish(_ result: Result<[EventFrame], Error>, cancel task: URLSessionTask?) {
    lock.lock()
    guard !finished, let c = continuation else { lock.unlock(); return }
    finished = true
    continuation = nil
    lock.unlock()
    task?.cancel()
    c.resume(with: result)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let http = response as? HTTPURLResponse
    let code = http?.statusCode ?? 0
    let contract = http?.value(forHTTPHeaderField: "X-Marfa-Contract")
    lock.lock()
    status = code
    contractOK = contract.map { $0.split(separator: ",").allSatisfy { $0.trimmingCharacters(in: .whitespaces) == HTTPClient.contract } } ?? false
    lock.unlock()
    if !(200..<300).contains(code) {
      if contract == nil || code >= 500 || code == 429 {
        finish(.failure(Failure.transport("the event stream was answered \(code)\(contract == nil ? " naming no contract" : "")")), cancel: dataTask)
      } else {
        finish(.failure(Failure.status(code, nil)), cancel: dataTask)
      }
      completionHandler(.cancel)
      return
    }
    if contract == nil || !(contract!.split(separator: ",").allSatisfy { $0.trimmingCharacters(in: .whitespaces) == HTTPClient.contract }) {
      finish(.failure(Failure.contract(contract)), cancel: dataTask)
      completionHandler(.cancel)
      return
    }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    lock.lock()
    buffer.append(contentsOf: data)
    var complete = false
    while let end = frameEnd() {
      let raw = Array(buffer[..<end.start])
      buffer.removeFirst(end.next)
      if let frame = EventStreamReader.parse(raw) {
        frames.append(frame)
        if done(frame) { complete = true; break }
      }
    }
    let collected = frames
    lock.unlock()
    if complete { finish(.success(collected), cancel: dataTask) }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    if let error {
      finish(.failure(Failure.transport(HTTPClient.describe(error))), cancel: nil)
    } else {
      finish(.failure(Failure.endedEarly), cancel: nil)
    }
  }

  /// Where the first complete frame ends (a blank line), and where the next begins.
  private func frameEnd() -> (start: Int, next: Int)? {
    var i = 0
    while i + 1 < buffer.count {
      if buffer[i] == 0x0A && buffer[i + 1] == 0x0A { return (i, i + 2) }
      if i + 3 < buffer.count, buffer[i] == 0x0D, buffer[i + 1] == 0x0A, buffer[i + 2] == 0x0D, buffer[i + 3] == 0x0A {
        return (i, i + 4)
      }
      i += 1
    }
    return nil
  }

  /// Parses one frame's lines; nil for a comment-only frame (a keepalive).
  static func parse(_ raw: [UInt8]) -> EventFrame? {
    let text = String(decoding: raw, as: UTF8.self)
    var id: String?
    var event: String?
    var data: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let l = line.hasSuffix("\r") ? line.dropLast() : line
      if l.isEmpty || l.hasPrefix(":") { continue }
      let (field, value): (Substring, Substring)
      if let colon = l.firstIndex(of: ":") {
        field = l[..<colon]
        var v = l[l.index(after: colon)...]
        if v.hasPrefix(" ") { v = v.dropFirst() }
        value = v
      } else {
        field = l
        value = ""
      }
      switch field {
      case "id": id = String(value)
      case "event": event = String(value)
      case "data": data.append(String(value))
      default: break
      }
    }
    if id == nil && event == nil && data.isEmpty { return nil }
    return EventFrame(id: id, event: event, data: data.joined(separator: "\n"))
  }
}
