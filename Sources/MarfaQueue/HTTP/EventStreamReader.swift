import FoundationEssentials
import Glibc

/// Reads `/events` incrementally through libcurl: frames are parsed as their bytes arrive, and
/// the stream is stopped once `done` says so, or once it passes ``ResponseLimits/eventFrame`` (one
/// frame) or ``ResponseLimits/eventStream`` (the whole stream), or its deadline.
///
/// `@unchecked Sendable`: its state is written only on the driver's thread while the transfer
/// runs and read only after the transfer's ``CurlTransfer/done`` is set.
final class EventStreamReader: CurlReceiver, @unchecked Sendable {
  /// Unparsed bytes: `buffer[start...]` is the frame under way.
  private var buffer: [UInt8] = []
  private var start = 0
  /// Where the search for the frame's end resumes (bytes before it hold no frame end).
  private var scanned = 0
  private var total = 0
  private var frames: [EventFrame] = []
  private var complete = false
  private var failure: Failure?
  private let done: @Sendable (EventFrame) -> Bool
  /// Which frames before the last are kept (a fill needs only its cursor: the rest is dropped
  /// as it is read, so a long head costs no memory).
  private let keep: @Sendable (EventFrame) -> Bool

  /// What went wrong before the stream said enough.
  enum Failure: Error {
    case transport(String)
    case status(Int, String?)
    case contract(String?)
    case endedEarly
  }

  init(done: @escaping @Sendable (EventFrame) -> Bool, keep: @escaping @Sendable (EventFrame) -> Bool) {
    self.done = done
    self.keep = keep
  }

  /// Opens the stream and returns its frames up to and including the one `done` accepts.
  ///
  /// `timeout` bounds connecting and any silence (less than a byte a second for that long);
  /// the whole stream ends by six times `timeout`, however it trickles.
  static func read(
    _ url: URL, key: String?, lastEventId: String?, readView: String? = nil, timeout: TimeInterval,
    proxy: String? = nil,
    keep: @escaping @Sendable (EventFrame) -> Bool = { _ in true }, done: @escaping @Sendable (EventFrame) -> Bool
  ) async throws -> [EventFrame] {
    let reader = EventStreamReader(done: done, keep: keep)
    var headers = [("Accept", "text/event-stream")]
    if let key { headers.append(("Authorization", "Bearer \(key)")) }
    if let lastEventId { headers.append(("Last-Event-ID", lastEventId)) }
    if let readView { headers.append(("X-Marfa-Read-View", readView)) }
    let request = CurlRequest(
      method: "GET", url: url.absoluteString, headers: headers, body: nil,
      deadlineMs: HTTPClient.milliseconds(timeout * 6), connectMs: HTTPClient.milliseconds(timeout),
      stallSeconds: max(1, Int(timeout.rounded(.up))), proxy: proxy)
    let driver: CurlDriver
    let transfer: CurlTransfer
    do {
      driver = try CurlDriver.streams()
      transfer = try CurlTransfer(easy: driver.easyHandle(), request: request, receiver: reader)
    } catch let e as TransportError {
      throw Failure.transport(e.message)
    }
    driver.submit(transfer)
    let outcome = await withTaskCancellationHandler {
      (try? await transfer.done.value()) ?? .cancelled
    } onCancel: {
      driver.cancel(transfer)
    }
    if reader.complete { return reader.frames }
    if let failure = reader.failure { throw failure }
    if let cut = outcome.cut { throw Failure.transport(cut) }
    if outcome.ok { throw Failure.endedEarly }
    throw Failure.transport(outcome.message)
  }

  func head(status code: Int, headers: [String: String]) -> Bool {
    let contract = headers["x-marfa-contract"]
    let ours =
      contract.map {
        $0.split(separator: ",").allSatisfy { $0.trimmingSpaces() == HTTPClient.contract }
      } ?? false
    if !(200..<300).contains(code) {
      if contract == nil || HTTPStatus.isEnvironmental(code) {
        failure = .transport("the event stream was answered \(code)\(contract == nil ? " naming no contract" : "")")
      } else {
        failure = .status(code, nil)
      }
      return false
    }
    if !ours {
      failure = .contract(contract)
      return false
    }
    return true
  }

  func body(_ piece: UnsafeRawBufferPointer) -> Bool {
    total += piece.count
    if total > ResponseLimits.eventStream {
      return stop("the event stream passed \(ResponseLimits.words(ResponseLimits.eventStream)) and was cut")
    }
    buffer.append(contentsOf: piece.assumingMemoryBound(to: UInt8.self))
    while let end = frameEnd() {
      let raw = buffer[start..<end.start]
      start = end.next
      scanned = start
      if let frame = EventStreamReader.parse(raw) {
        if done(frame) {
          frames.append(frame)
          complete = true
          return false
        }
        if keep(frame) { frames.append(frame) }
      }
    }
    if buffer.count - start > ResponseLimits.eventFrame {
      return stop("an event frame passed \(ResponseLimits.words(ResponseLimits.eventFrame)) and was cut")
    }
    // Drop what was read, once it is worth the copy.
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeFirst(start)
      scanned -= start
      start = 0
    }
    return true
  }

  private func stop(_ why: String) -> Bool {
    failure = .transport(why)
    buffer = []
    frames = []
    return false
  }

  /// Where the first complete frame ends (a blank line), and where the next begins.
  private func frameEnd() -> (start: Int, next: Int)? {
    let from = max(start, scanned)
    let found: (Int, Int)? = buffer.withUnsafeBufferPointer { all in
      guard let base = all.baseAddress else { return nil }
      var i = from
      // Line feeds found with memchr: a frame of a megabyte is scanned at memory speed.
      while i < all.count, let hit = memchr(base + i, 0x0A, all.count - i) {
        let n = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        if n + 1 < all.count, all[n + 1] == 0x0A { return (n, n + 2) }
        if n >= 1, n + 2 < all.count, all[n - 1] == 0x0D, all[n + 1] == 0x0D, all[n + 2] == 0x0A, n - 1 >= start {
          return (n - 1, n + 3)
        }
        i = n + 1
      }
      return nil
    }
    if let found { return found }
    // The last 3 bytes may begin a frame end that the next piece completes.
    scanned = max(start, buffer.count - 3)
    return nil
  }

  /// Parses one frame's lines; nil for a comment-only frame (a keepalive).
  static func parse<Bytes: Collection<UInt8>>(_ raw: Bytes) -> EventFrame? {
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
