import Foundation
import ScriptedInstance
import TestSupport
import Testing

@testable import MarfaQueue

/// A server that drops the connection mid-exchange: a
/// request that went out and met a dropped connection, before any answer or after part of one,
/// is an environmental failure at once; the pass ends, the write stays unanswered under its key,
/// and it is never sent twice (libcurl's own silent resend on a fresh connection is refused),
/// nor with a body shorter than its `Content-Length`. A pooled connection found closed before
/// the request was written is replaced without a word.
@Suite struct DroppedConnectionTests {
  /// The request's own timeout; every case must end well before it.
  static let timeout = 10.0
  /// "Well under": what a case may take at most. A case takes ~0.3 s alone; on two CPUs shared
  /// with builds one took 2.1 s, so the bound leaves room for load and still fails a drain that
  /// waits for the timeout.
  static let bound = 4.0
  /// Big enough that the body leaves in several pieces.
  static let title = String(repeating: "t", count: 256 << 10)
  /// What the write's `lastFailure.text` and the drain's `unavailable` say when the request went
  /// out whole and the connection closed with no answer.
  static let sentence = "the connection was dropped (\(CurlTransfer.droppedAfterSendingWords))"

  /// Where the server drops the write request that comes on the reused connection.
  enum Drop: String, CaseIterable, Sendable {
    case afterTheHead = "(a) after reading the headers"
    case midBody = "(b) mid-body"
    case afterTheFirstAnswerByte = "(c) after the first byte of the answer"
    case onTheReusedIdleConnection = "(d) on the reused idle keep-alive connection, the request read whole"
    case midAnswerHead = "(e) within the answer's head"
    case afterTheAnswersHead = "(f) after the answer's whole head"
    case midAnswerBody = "(g) after part of the answer's body"
  }

  /// Answers `GET /` and keeps the connection; drops the write request that comes on it as
  /// `drop` says. A write request on any later connection (a resend) is read whole, recorded,
  /// and answered 201, so a resend would show as an accepted write.
  static func handler(_ drop: Drop) -> @Sendable (RawPeer) -> Void {
    { peer in
      while let head = peer.readHead() {
        if RawServerCopy.answersRoot(peer, head) { continue }
        guard peer.connection == 0 else {
          peer.readBody(of: head)
          peer.answer(201, headers: [RawServerCopy.contract], body: RawServerCopy.created("w0"))
          continue
        }
        switch drop {
        case .afterTheHead:
          peer.skipBody(of: head)
        case .midBody:
          peer.readBody(of: head, limit: head.contentLength / 2)
        case .afterTheFirstAnswerByte:
          peer.readBody(of: head)
          peer.write("H")
        case .onTheReusedIdleConnection:
          peer.readBody(of: head)
        case .midAnswerHead:
          peer.readBody(of: head)
          peer.write("HTTP/1.1 201 Created\r\n\(RawServerCopy.contract)\r\nContent-Len")
        case .afterTheAnswersHead:
          peer.readBody(of: head)
          peer.write("HTTP/1.1 201 Created\r\n\(RawServerCopy.contract)\r\nContent-Length: 100\r\n\r\n")
        case .midAnswerBody:
          peer.readBody(of: head)
          peer.write("HTTP/1.1 201 Created\r\n\(RawServerCopy.contract)\r\nContent-Length: 100\r\n\r\n{\"item\":")
        }
        return
      }
    }
  }

  @Test(
    "a dropped exchange fails at once as environmental and the write stays unanswered under its key sent once",
    .disabled(if: SanitizerRun.active, "a wall-clock bound: under a sanitizer the code runs 2–20× slower"),
    arguments: Drop.allCases)
  func aDroppedExchangeFailsAtOnceAsEnvironmentalAndTheWriteStaysUnansweredUnderItsKeySentOnce(_ drop: Drop)
    async throws
  {
    let setup = try await RawServerCopy(title: Self.title, timeout: Self.timeout, handler: Self.handler(drop))
    let queued = try #require(setup.queued.first)
    let clock = ContinuousClock()
    let start = clock.now
    let report = try await setup.copy.queue.drain()
    let elapsed =
      Double((clock.now - start).components.seconds) + Double((clock.now - start).components.attoseconds) / 1e18
    #expect(
      elapsed < Self.bound, "\(drop.rawValue): the drain took \(elapsed) s against a timeout of \(Self.timeout) s")

    #expect(report.answered == 0, "\(drop.rawValue)")
    #expect(report.undelivered == 1, "\(drop.rawValue)")
    let w = try await setup.write(queued.id)
    #expect(w.verdict == nil, "\(drop.rawValue)")
    #expect(w.refusals == 0, "\(drop.rawValue): not counted toward the ceiling")
    #expect(w.idempotencyKey == queued.idempotencyKey)
    #expect(w.environmentalStreak == 1)
    #expect(w.lastFailure?.status == nil, "\(drop.rawValue): no whole answer came, so no status")
    let text = w.lastFailure?.text ?? ""
    #expect(text.hasPrefix("the connection was dropped ("), "\(drop.rawValue): \(text)")
    #expect(report.unavailable == "the instance could not be reached: \(text)", "\(drop.rawValue)")

    let posts = setup.posts
    #expect(posts.count == 1, "\(drop.rawValue): sent once, never again on a fresh connection: \(posts)")
    // The write request came on the connection `GET /` opened: a reused one.
    #expect(posts.first?.connection == 0 && posts.first?.indexOnConnection == 1, "\(posts)")
    for post in posts {
      #expect(!post.arrivedShort, "\(drop.rawValue): a request reached the server short of its Content-Length: \(post)")
      #expect(post.headers["idempotency-key"] == queued.idempotencyKey)
    }
  }

  /// The contract harness's `{kind: "drop"}` then an answer, on a raw socket: the first write
  /// request (on the connection `GET /` kept alive) is read whole and its connection closed with
  /// no answer; every later one is answered 201.
  @Test("a request read whole then dropped with no answer ends the pass uncounted with the client's sentence")
  func aRequestReadWholeThenDroppedWithNoAnswerEndsThePassUncountedWithTheClientsSentence() async throws {
    let dropped = SharedValue(false)
    let setup = try await RawServerCopy(writes: 2, timeout: Self.timeout) { peer in
      while let head = peer.readHead() {
        if RawServerCopy.answersRoot(peer, head) { continue }
        let body = String(decoding: peer.readBody(of: head), as: UTF8.self)
        var first = false
        dropped.update {
          first = !$0
          $0 = true
        }
        if first { return }
        let id = body.contains(#""w1""#) ? "w1" : "w0"
        peer.answer(201, headers: [RawServerCopy.contract], body: RawServerCopy.created(id))
      }
    }
    let (w0, w1) = (setup.queued[0], setup.queued[1])
    let report = try await setup.copy.queue.drain()
    #expect(report.answered == 0)
    #expect(report.undelivered == 2, "the write the drop met and the one after it, untried")
    #expect(report.unavailable == "the instance could not be reached: \(Self.sentence)")
    let met = try await setup.write(w0.id)
    #expect(met.verdict == nil)
    #expect(met.refusals == 0)
    #expect(met.environmentalStreak == 1)
    #expect(met.lastFailure == LastFailure(status: nil, text: Self.sentence))
    let untried = try await setup.write(w1.id)
    #expect(untried.sent == false)
    #expect(untried.environmentalStreak == 0)
    #expect(untried.lastFailure == nil)
    #expect(setup.posts.count == 1, "nothing sent twice: \(setup.posts)")
    #expect(setup.posts.first?.indexOnConnection == 1, "it went out on the connection GET / kept alive")

    // The next drain sends it again under its key, and the answer lands.
    let again = try await setup.copy.queue.drain()
    #expect(again.answered == 2)
    let landed = try await setup.write(w0.id)
    #expect(landed.verdict == .accepted)
    #expect(landed.lastFailure == nil)
    #expect(landed.environmentalStreak == 0)
    #expect(setup.posts.map { $0.headers["idempotency-key"] } == [w0, w0, w1].map { Optional($0.idempotencyKey) })
  }

  /// The scripted instance's `.drop` is the contract's: the request read, the socket closed
  /// with no answer. Scripted once and then answered, as the contract harness does.
  @Test("the scripted instances drop then an answer leaves the write undelivered then accepted under its key")
  func theScriptedInstancesDropThenAnAnswerLeavesTheWriteUndeliveredThenAcceptedUnderItsKey() async throws {
    let h = try await DrainHarness(rules: [.once(.write("w-drop"), .drop)])
    let w = try await h.note(id: "w-drop")
    let report = try await h.copy.queue.drain()
    #expect(report.answered == 0)
    #expect(report.undelivered == 1)
    #expect(report.unavailable == "the instance could not be reached: \(Self.sentence)")
    let met = try await h.write(w.id)
    #expect(met.verdict == nil)
    #expect(met.environmentalStreak == 1)
    #expect(met.lastFailure == LastFailure(status: nil, text: Self.sentence))
    #expect(h.requests("POST", "/items").count == 1, "never resent within the pass")
    #expect(h.instance.appliedCount(key: w.idempotencyKey) == 0)

    _ = try await h.copy.queue.drain()
    let landed = try await h.write(w.id)
    #expect(landed.verdict == .accepted)
    #expect(landed.idempotencyKey == w.idempotencyKey)
    #expect(landed.lastFailure == nil)
    #expect(landed.environmentalStreak == 0)
    #expect(h.instance.appliedCount(key: w.idempotencyKey) == 1)
  }

  @Test("a pooled connection the server closed before the next drain is replaced without a word and the write accepted")
  func aPooledConnectionTheServerClosedBeforeTheNextDrainIsReplacedWithoutAWordAndTheWriteAccepted()
    async throws
  {
    let closed = SharedValue(false)
    let setup = try await RawServerCopy(writes: 1, timeout: Self.timeout) { peer in
      while let head = peer.readHead() {
        if RawServerCopy.answersRoot(peer, head) { continue }
        let body = String(decoding: peer.readBody(of: head), as: UTF8.self)
        let id = body.contains(#""w1""#) ? "w1" : "w0"
        peer.answer(201, headers: [RawServerCopy.contract], body: RawServerCopy.created(id))
        if peer.connection == 0 && head.method == "GET" {
          // Idle after the read that follows the write's answer: closed before the next drain.
          peer.drop()
          closed.update { $0 = true }
          return
        }
      }
    }
    let first = try await setup.copy.queue.drain()
    #expect(first.answered == 1)
    #expect(await eventually(within: .seconds(20), every: .milliseconds(10)) { closed.value })
    let w1 = try await setup.copy.createItem(type: "note", properties: .object([("title", .string("b"))]), id: "w1")

    let report = try await setup.copy.queue.drain()
    #expect(report.answered == 1)
    #expect(report.undelivered == 0)
    #expect(report.unavailable == nil)
    let landed = try await setup.write(w1.id)
    #expect(landed.verdict == .accepted)
    #expect(landed.lastFailure == nil)
    #expect(landed.environmentalStreak == 0)
    let received = setup.server.received
    #expect(received.filter { $0.connection == 0 }.count == 3, "nothing more went on the closed one: \(received)")
    #expect(received.filter { $0.connection == 1 }.map(\.method) == ["GET", "POST", "GET"], "\(received)")
  }

  @Test("a connection the server closed while idle is not reused and the next request goes whole on a fresh one")
  func aConnectionTheServerClosedWhileIdleIsNotReusedAndTheNextRequestGoesWholeOnAFreshOne() async throws {
    let closed = SharedValue(false)
    let server = try RawServer { peer in
      while let head = peer.readHead() {
        if RawServerCopy.answersRoot(peer, head) {
          if peer.connection == 0 {
            // Idle after its answer: the server closes it before the next request comes.
            peer.drop()
            closed.update { $0 = true }
            return
          }
          continue
        }
        peer.readBody(of: head)
        peer.answer(201, headers: [RawServerCopy.contract], body: RawServerCopy.created("w0"))
      }
    }
    defer { server.stop() }
    let client = try HTTPClient(timeout: Self.timeout)
    defer { client.invalidate() }
    #expect(try await client.send("GET", server.url, key: "k1").status == 200)
    #expect(await eventually(within: .seconds(20), every: .milliseconds(10)) { closed.value })
    let body = Array(#"{"id":"w0","type":"note","properties":{"title":"\#(Self.title)"}}"#.utf8)
    let clock = ContinuousClock()
    let start = clock.now
    let answer = try await client.send(
      "POST", server.url.appendingPathComponent("items"),
      headers: ["Content-Type": "application/json", "Idempotency-Key": "key-1"], body: body, key: "k1")
    #expect(clock.now - start < .seconds(Self.bound))
    #expect(answer.status == 201)
    let posts = server.received.filter { $0.method == "POST" }
    #expect(posts.count == 1)
    #expect(posts.first?.connection == 1)
    #expect(posts.first?.bodyReceived == body.count)
    #expect(posts.first?.contentLength == body.count)
  }

  @Test("a bodiless request read then dropped on a reused connection fails at once and is not sent again")
  func aBodilessRequestReadThenDroppedOnAReusedConnectionFailsAtOnceAndIsNotSentAgain() async throws {
    let server = try RawServer { peer in
      // A generous wait for the next request: under load the client may take seconds to send the
      // DELETE, and a connection the server gave up on would carry it on a fresh one.
      while let head = peer.readHead(timeout: 60) {
        // The second request on the first connection (a DELETE with no body) is dropped unanswered.
        if peer.connection == 0, head.method == "DELETE" { return }
        peer.answer(200, headers: [RawServerCopy.contract], body: #"{"ok":true}"#)
      }
    }
    defer { server.stop() }
    let client = try HTTPClient(timeout: Self.timeout)
    defer { client.invalidate() }
    #expect(try await client.send("GET", server.url, key: "k1").status == 200)
    let url = server.url.appendingPathComponent("items/n1")
    let error = await #expect(throws: TransportError.self) { _ = try await client.send("DELETE", url, key: "k1") }
    #expect(error?.message == Self.sentence)
    #expect(error?.status == nil)
    #expect(server.received.map(\.method) == ["GET", "DELETE"], "\(server.received)")
    // The client goes on: the next request takes a fresh connection.
    #expect(try await client.send("GET", server.url, key: "k1").status == 200)
  }
}
