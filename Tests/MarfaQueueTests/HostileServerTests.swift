import Foundation
import ScriptedInstance
import TestSupport
import Testing

@testable import MarfaQueue

/// Servers that never stop or send too much: every answer is read within
/// ``ResponseLimits`` and its request's deadline; past either it is an environmental failure whose
/// `lastFailure` says what was cut.
@Suite struct HostileServerTests {
  static let timeout = 3.0

  /// Seconds since `start`.
  static func seconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
  }

  /// A raw copy whose write request gets `answer` (root answered as the instance).
  static func drainAgainst(_ answer: @escaping @Sendable (RawPeer, RawPeer.Head) -> Void) async throws
    -> (RawServerCopy, DrainReport, QueuedWrite, Double)
  {
    let setup = try await RawServerCopy(timeout: timeout) { peer in
      while let head = peer.readHead() {
        if RawServerCopy.answersRoot(peer, head) { continue }
        peer.readBody(of: head)
        answer(peer, head)
        return
      }
    }
    let queued = try #require(setup.queued.first)
    let start = ContinuousClock.now
    let report = try await setup.copy.queue.drain()
    let elapsed = seconds(since: start)
    return (setup, report, try await setup.write(queued.id), elapsed)
  }

  /// Chunks of 64 KiB until the client goes away.
  static func endlessChunks(_ peer: RawPeer) {
    peer.write(
      "HTTP/1.1 201 Created\r\n\(RawServerCopy.contract)\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x10000) + Array("\r\n".utf8)
    while !peer.stopping, peer.write(chunk) {}
  }

  @Test(.disabled(if: SanitizerRun.active, "a wall-clock bound: under a sanitizer the code runs 2–20× slower"))
  func anEndlessChunkedAnswerIsCutAtTheBodyLimitAndTheWriteStaysUnanswered() async throws {
    let (setup, report, w, elapsed) = try await Self.drainAgainst { peer, _ in Self.endlessChunks(peer) }
    _ = setup
    #expect(elapsed < Self.timeout, "took \(elapsed) s")
    #expect(report.undelivered == 1)
    #expect(w.verdict == nil)
    #expect(w.environmentalStreak == 1)
    #expect(w.lastFailure?.text == "the answer passed 8 MiB and was cut", "\(String(describing: w.lastFailure))")
    #expect(w.lastFailure?.status == 201)
    #expect(report.unavailable?.contains("8 MiB") == true)
  }

  @Test(.disabled(if: SanitizerRun.active, "a wall-clock bound: under a sanitizer the code runs 2–20× slower"))
  func aBodyTrickledAByteASecondEndsAtTheRequestsDeadline() async throws {
    let (setup, report, w, elapsed) = try await Self.drainAgainst { peer, _ in
      peer.write("HTTP/1.1 201 Created\r\n\(RawServerCopy.contract)\r\nContent-Length: 1000\r\n\r\n")
      while !peer.stopping, peer.write("{") { usleep(1_000_000) }
    }
    _ = setup
    #expect(
      elapsed >= Self.timeout - 0.5 && elapsed < Self.timeout + 1.5,
      "took \(elapsed) s against a deadline of \(Self.timeout) s")
    #expect(report.undelivered == 1)
    #expect(w.verdict == nil)
    #expect(w.lastFailure != nil)
    #expect(report.unavailable?.contains("timed out") == true, "\(report.unavailable ?? "")")
  }

  @Test(.disabled(if: SanitizerRun.active, "a wall-clock bound: under a sanitizer the code runs 2–20× slower"))
  func aHugeHeaderLineIsCutAndTheWriteStaysUnanswered() async throws {
    let (setup, report, w, elapsed) = try await Self.drainAgainst { peer, _ in
      peer.write("HTTP/1.1 201 Created\r\n\(RawServerCopy.contract)\r\nX-Huge: ")
      let piece = [UInt8](repeating: 0x61, count: 64 << 10)
      for _ in 0..<(16 << 4) where peer.write(piece) {}
    }
    _ = setup
    #expect(elapsed < Self.timeout)
    #expect(report.undelivered == 1)
    #expect(w.verdict == nil)
    #expect(w.lastFailure?.text?.contains("headers passed") == true, "\(String(describing: w.lastFailure))")
  }

  @Test func headersPastTheirLimitInManyLinesAreCut() async throws {
    let (setup, report, w, _) = try await Self.drainAgainst { peer, _ in
      var head = "HTTP/1.1 201 Created\r\n\(RawServerCopy.contract)\r\n"
      for i in 0..<200 { head += "X-Line-\(i): \(String(repeating: "v", count: 1000))\r\n" }
      peer.write(head + "Content-Length: 2\r\n\r\n{}")
    }
    _ = setup
    #expect(report.undelivered == 1)
    #expect(w.verdict == nil)
    #expect(
      w.lastFailure?.text == "the answer's headers passed 64 KiB and were cut", "\(String(describing: w.lastFailure))")
  }

  @Test func aLatin1HeaderValueOnA201IsReadAsBytesAndTheWriteIsAccepted() async throws {
    let (setup, report, w, _) = try await Self.drainAgainst { peer, _ in
      let body = Array(RawServerCopy.created("w0").utf8)
      peer.write(
        Array(
          "HTTP/1.1 201 Created\r\n\(RawServerCopy.contract)\r\nContent-Type: application/json\r\nLocation: /items/"
            .utf8)
          + [0xE9] + Array("\r\nX-Note: caf".utf8) + [0xE9, 0x9B]
          + Array("\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
    }
    _ = setup
    #expect(report.answered == 1, "\(report.unavailable ?? "")")
    #expect(w.verdict == .accepted)
    #expect(w.lastFailure == nil)
  }

  @Test func latin1HeaderValuesReachTheAnswerAsTheirCodePoints() async throws {
    let server = try RawServer { peer in
      guard peer.readHead() != nil else { return }
      peer.write(
        Array("HTTP/1.1 201 Created\r\nLocation: /items/".utf8) + [0xE9] + Array("\r\nContent-Length: 0\r\n\r\n".utf8))
    }
    defer { server.stop() }
    let client = try HTTPClient(timeout: Self.timeout)
    defer { client.invalidate() }
    let answer = try await client.send("GET", server.url, key: nil)
    #expect(answer.status == 201)
    #expect(answer.header("Location") == "/items/\u{E9}")
  }

  // MARK: /events

  /// Answers `GET /` and streams `/events` with `frames` until the client goes away.
  static func eventServer(_ frames: @escaping @Sendable (RawPeer) -> Void) throws -> RawServer {
    try RawServer { peer in
      while let head = peer.readHead() {
        if RawServerCopy.answersRoot(peer, head) { continue }
        guard head.path.hasPrefix("/events") else { return }
        peer.write("HTTP/1.1 200 OK\r\n\(RawServerCopy.contract)\r\nContent-Type: text/event-stream\r\n\r\n")
        frames(peer)
        return
      }
    }
  }

  /// Frames of about 16 KiB that never say where the stream stands.
  static func endlessFrames(_ peer: RawPeer) {
    var n = 0
    let filler = String(repeating: "x", count: 16_000)
    var batch = ""
    while !peer.stopping {
      batch = ""
      for _ in 0..<64 {
        n += 1
        // The padding is a field readers ignore, so the cost is the stream's bytes, not JSON parsing.
        batch += "id: \(n)\npad: \(filler)\ndata: {\"event_type\":\"item_updated\"}\n\n"
      }
      if !peer.write(batch) { return }
    }
  }

  @Test(.disabled(if: SanitizerRun.active, "a wall-clock bound: under a sanitizer the code runs 2–20× slower"))
  func aFillReadingAnEndlessEventStreamIsCutAtTheStreamLimit() async throws {
    let server = try Self.eventServer(Self.endlessFrames)
    defer { server.stop() }
    let folder = TestStore()
    let copy = try await WorkingCopy.open(
      store: folder.url, server: Server(url: server.url.absoluteString, key: "k1", timeout: Self.timeout))
    defer { copy.close() }
    let start = ContinuousClock.now
    let error = await #expect(throws: QueueError.self) { try await copy.fill() }
    #expect(Self.seconds(since: start) < Self.timeout * 6)
    guard case .network(let message)? = error else {
      Issue.record("not a network error: \(String(describing: error))")
      return
    }
    #expect(message == "the event stream passed 32 MiB and was cut")
  }

  @Test func anEventFrameThatNeverEndsIsCutAtTheFrameLimit() async throws {
    let server = try Self.eventServer { peer in
      peer.write("data: ")
      let piece = String(repeating: "y", count: 64 << 10)
      while !peer.stopping, peer.write(piece) {}
    }
    defer { server.stop() }
    let folder = TestStore()
    let copy = try await WorkingCopy.open(
      store: folder.url, server: Server(url: server.url.absoluteString, key: "k1", timeout: Self.timeout))
    defer { copy.close() }
    let error = await #expect(throws: QueueError.self) { try await copy.fill() }
    guard case .network(let message)? = error else {
      Issue.record("not a network error: \(String(describing: error))")
      return
    }
    #expect(message == "an event frame passed 1 MiB and was cut")
  }

  @Test func aCatchUpReadingAnEndlessEventStreamIsCutAndTheCopyKeepsItsCursor() async throws {
    let setup = try await RawServerCopy(writes: 0, timeout: Self.timeout) { peer in
      while let head = peer.readHead() {
        if RawServerCopy.answersRoot(peer, head) { continue }
        peer.write("HTTP/1.1 200 OK\r\n\(RawServerCopy.contract)\r\nContent-Type: text/event-stream\r\n\r\n")
        Self.endlessFrames(peer)
        return
      }
    }
    let before = try await setup.copy.status().cursor
    let start = ContinuousClock.now
    let error = await #expect(throws: QueueError.self) { try await setup.copy.catchUp() }
    #expect(Self.seconds(since: start) < Self.timeout * 6)
    guard case .network(let message)? = error else {
      Issue.record("not a network error: \(String(describing: error))")
      return
    }
    #expect(message.contains("32 MiB"))
    #expect(try await setup.copy.status().cursor == before)
    #expect(try await setup.copy.status().fill == .complete)
  }
}
