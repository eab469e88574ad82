import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

/// `verdicts drain` as users run it, against a server whose write answer never ends:
/// the process stays small and ends within its deadline.
@Suite(.serialized) struct HostileServerBinaryTests {
  /// The most the drain's process may hold at its peak.
  static let peakLimitKiB = 100 * 1024
  /// `verdicts`'s request timeout is 10 s; the drain must be over well within this.
  static let deadline = 20.0

  /// A 201 in 64 KiB chunks that never end, `GET /` answered as the instance the store was filled from.
  static func endlessChunks() throws -> RawServer {
    try RawServer { peer in
      while let head = peer.readHead() {
        if head.method == "GET", head.path == "/" {
          peer.answer(
            200, headers: ["X-Marfa-Contract: 2"],
            body: #"{"instance_id":"\#(Scenario.defaultInstanceId)","contract":2}"#)
          continue
        }
        peer.readBody(of: head)
        peer.write("HTTP/1.1 201 Created\r\nX-Marfa-Contract: 2\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x10000) + Array("\r\n".utf8)
        while !peer.stopping, peer.write(chunk) {}
        return
      }
    }
  }

  @Test(.disabled(if: SanitizerRun.active, "a memory bound: a sanitizer's shadow memory adds tens of MB"))
  func aDrainAgainstAnEndlessChunkedAnswerStaysUnder100MBAndEndsWithinItsDeadline() async throws {
    let victim = try await DrainVictim(writes: 1)
    let server = try Self.endlessChunks()
    defer { server.stop() }
    let run = try Self.measured(["--json", "drain"], store: victim.store, home: victim.folder.path, server: server)
    print(
      "verdicts drain against endless chunks: peak resident \(run.peakKiB / 1024) MB, ended in \(String(format: "%.2f", run.seconds)) s"
    )
    #expect(run.ended && run.seconds < Self.deadline, "verdicts drain ran \(run.seconds) s")
    #expect(run.peakKiB > 0, "no /proc status sample was read")
    #expect(run.peakKiB <= Self.peakLimitKiB, "peak resident memory \(run.peakKiB / 1024) MB")
    #expect(run.result.code == 3, "\(run.result)")
    #expect(run.result.json?["undelivered"] == .number(1), "\(run.result)")
    #expect(run.result.json?["unavailable"]?.stringValue?.contains("8 MiB") == true, "\(run.result)")
    let w = try #require(try await victim.queueNow().first)
    #expect(w.verdict == nil)
    #expect(w.lastFailure?.text == "the answer passed 8 MiB and was cut")
  }

  /// Runs `verdicts` against `server` until it ends (at most ``deadline``), sampling its peak
  /// resident memory; returns what it did, its peak in KiB and how long it ran.
  static func measured(_ arguments: [String], store: String, home: String, server: RawServer) throws
    -> (result: CommandResult, ended: Bool, peakKiB: Int, seconds: Double)
  {
    let environment = Binary.environment(
      store: store, home: home, ["MARFA_API_URL": server.url.absoluteString, "MARFA_API_KEY": "k1"])
    let start = Date()
    let process = try Spawned(arguments, environment: environment)
    let pid = process.process.processIdentifier
    var peakKiB = 0
    // Sampled every 5 ms while it runs.
    waitUntil(within: .seconds(Self.deadline), every: .milliseconds(5)) {
      guard process.process.isRunning else { return true }
      peakKiB = max(peakKiB, Self.highWaterKiB(pid) ?? 0)
      return false
    }
    let ended = process.wait(timeout: 1)
    if !ended { process.kill() }
    return (process.result(), ended, peakKiB, Date().timeIntervalSince(start))
  }

  /// A server that answers `GET /` as the instance and every other request with `answer`.
  static func server(_ answer: @escaping @Sendable (RawPeer, RawPeer.Head) -> Void) throws -> RawServer {
    try RawServer { peer in
      while let head = peer.readHead() {
        if head.method == "GET", head.path == "/" {
          _ = peer.answer(
            200, headers: ["X-Marfa-Contract: 2"],
            body: #"{"instance_id":"\#(Scenario.defaultInstanceId)","contract":2}"#)
          continue
        }
        peer.readBody(of: head)
        answer(peer, head)
        return
      }
    }
  }

  @Test(.disabled(if: SanitizerRun.active, "a memory bound: a sanitizer's shadow memory adds tens of MB"))
  func aDrainAgainstAnAnswerTrickledAByteASecondEndsByItsDeadlineAndStaysSmall() async throws {
    let victim = try await DrainVictim(writes: 1)
    let server = try Self.server { peer, _ in
      _ = peer.write("HTTP/1.1 201 Created\r\nX-Marfa-Contract: 2\r\nContent-Length: 100000\r\n\r\n")
      while !peer.stopping, peer.write("{") { sleep(1) }
    }
    defer { server.stop() }
    let run = try Self.measured(["--json", "drain"], store: victim.store, home: victim.folder.path, server: server)
    print(
      "verdicts drain against a trickle: peak \(run.peakKiB / 1024) MB, ended in \(String(format: "%.2f", run.seconds)) s"
    )
    #expect(run.ended && run.seconds < Self.deadline, "ran \(run.seconds) s")
    #expect(run.peakKiB > 0 && run.peakKiB <= Self.peakLimitKiB, "peak \(run.peakKiB / 1024) MB")
    #expect(run.result.code == 3 && run.result.json?["undelivered"] == .number(1), "\(run.result)")
  }

  @Test(.disabled(if: SanitizerRun.active, "a memory bound: a sanitizer's shadow memory adds tens of MB"))
  func aDrainAgainstAHugeHeaderEndsAtOnceSayingTheHeadersWereCut() async throws {
    let victim = try await DrainVictim(writes: 1)
    let server = try Self.server { peer, _ in
      _ = peer.write("HTTP/1.1 201 Created\r\nX-Marfa-Contract: 2\r\nX-Junk: ")
      let block = [UInt8](repeating: 0x61, count: 1 << 16)
      for _ in 0..<(64 * 16) where !peer.stopping { if !peer.write(block) { break } }
    }
    defer { server.stop() }
    let run = try Self.measured(["--json", "drain"], store: victim.store, home: victim.folder.path, server: server)
    print(
      "verdicts drain against a 64 MB header: peak \(run.peakKiB / 1024) MB, ended in \(String(format: "%.2f", run.seconds)) s"
    )
    #expect(run.ended && run.seconds < Self.deadline, "ran \(run.seconds) s")
    #expect(run.peakKiB > 0 && run.peakKiB <= Self.peakLimitKiB, "peak \(run.peakKiB / 1024) MB")
    #expect(run.result.code == 3, "\(run.result)")
    let w = try #require(try await victim.queueNow().first)
    #expect(
      w.verdict == nil && w.lastFailure?.text?.contains("headers") == true, "\(String(describing: w.lastFailure))")
  }

  @Test(.disabled(if: SanitizerRun.active, "a memory bound: a sanitizer's shadow memory adds tens of MB"))
  func aFillAgainstAnEventStreamThatNeverEndsEndsAndStaysSmall() async throws {
    let folder = TempFolder()
    let server = try Self.server { peer, _ in
      _ = peer.write("HTTP/1.1 200 OK\r\nX-Marfa-Contract: 2\r\nContent-Type: text/event-stream\r\n\r\n")
      let frame = Array(
        "event: item\ndata: {\"id\":\"x\",\"pad\":\"\(String(repeating: "p", count: 16_000))\"}\n\n".utf8)
      while !peer.stopping, peer.write(frame) {}
    }
    defer { server.stop() }
    let run = try Self.measured(["--json", "fill"], store: folder.store, home: folder.path, server: server)
    print(
      "verdicts fill against endless events: peak \(run.peakKiB / 1024) MB, ended in \(String(format: "%.2f", run.seconds)) s"
    )
    #expect(run.ended && run.seconds < Self.deadline, "ran \(run.seconds) s")
    #expect(run.peakKiB > 0 && run.peakKiB <= Self.peakLimitKiB, "peak \(run.peakKiB / 1024) MB")
    #expect(run.result.code == 3, "\(run.result)")
    #expect(run.result.stderr.contains("the event stream passed 32 MiB and was cut"), "\(run.result)")
  }

  /// `VmHWM` (the peak resident set) of a running process, in KiB.
  static func highWaterKiB(_ pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
    return nil
  }
}
