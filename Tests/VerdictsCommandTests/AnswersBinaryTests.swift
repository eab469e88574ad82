import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A fill's bounds, answers about their own write, unknown kinds and the drain's words, as users meet them, through the built binary:
/// a fill whose pages never end, an answer about another row, an unreadable 2xx counted once,
/// a kind the store holds that this build does not know, a drain stopped past its deadline.
@Suite(.serialized) struct AnswersBinaryTests {
  /// The root as the instance the victim stores were filled from.
  static let root = #"{"instance_id":"\#(Scenario.defaultInstanceId)","contract":2}"#
  static let contract = "X-Marfa-Contract: 2"

  /// A create's answer for `id`.
  static func created(_ id: String) -> String {
    #"{"item":{"id":"\#(id)","type":"note","version":1,"state":"active","properties":{}},"metadata":{"item_id":"\#(id)","tags":[],"extensions":{}}}"#
  }

  /// A server that answers `GET /` as the instance, the head of `/events` with a cursor, and each
  /// page of `GET /items` with `page(number, cursor)` (its JSON); it counts the page requests.
  static func pagedServer(pages: SharedValue<Int>, _ page: @escaping @Sendable (Int, String?) -> String) throws
    -> RawServer
  {
    try RawServer { peer in
      while let head = peer.readHead() {
        if head.method == "GET", head.path == "/" {
          peer.answer(200, headers: [contract], body: root)
          continue
        }
        if head.path.hasPrefix("/events") {
          let frame =
            #"{"event_type":"stream_cursor","cursor":"c-head","instance_id":"\#(Scenario.defaultInstanceId)"}"#
          peer.write(
            "HTTP/1.1 200 OK\r\n\(contract)\r\nContent-Type: text/event-stream\r\n\r\nevent: stream_cursor\ndata: \(frame)\n\n"
          )
          return
        }
        let cursor = URLComponents(string: head.path)?.queryItems?.first { $0.name == "cursor" }?.value
        var number = 0
        pages.update {
          number = $0
          $0 += 1
        }
        if !peer.answer(200, headers: [contract, "Content-Type: application/json"], body: page(number, cursor)) {
          return
        }
      }
    }
  }

  @Test func aFillWhosePagesGiveTheSameCursorEndsAtOnceExitThreeNamingItAndHowFarItGot() throws {
    let folder = TempFolder()
    let pages = SharedValue(0)
    let server = try Self.pagedServer(pages: pages) { n, _ in
      #"{"data":[{"item":{"id":"i\#(n)","type":"note","version":1,"properties":{}}}],"next_cursor":"same"}"#
    }
    defer { server.stop() }
    let start = Date()
    let r = try Binary.run(
      ["--json", "fill"], store: folder.store, home: folder.path,
      environment: ["MARFA_API_URL": server.url.absoluteString, "MARFA_API_KEY": "k1"], timeout: 20)
    #expect(Date().timeIntervalSince(start) < 10)
    // contract_mismatch: the instance broke the contract; exit 1, as the contract's command has it.
    #expect(r.code == 1, "\(r)")
    #expect(pages.value == 2, "\(pages.value) page requests")
    let error = JSONValue.parse(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))?["error"]
    #expect(error?["code"] == .string("contract_mismatch"), "\(r.stderr)")
    let message = error?["message"]?.stringValue ?? ""
    #expect(message.contains("gave the cursor 'same' again"), "\(message)")
    #expect(message.contains("after 2 page(s) and 2 row(s), the last cursor 'same'"), "\(message)")
    let status = try Binary.run(["--json", "status"], store: folder.store, home: folder.path)
    #expect(status.json?["fill"] == .string("underway"), "\(status)")
  }

  @Test(.disabled(if: SanitizerRun.active, "a memory bound: a sanitizer's shadow memory adds tens of MB"))
  func aFillAgainstEndlessNewCursorsOfTwoHundredRowsStaysSmallWhileItReads() throws {
    let folder = TempFolder()
    let pages = SharedValue(0)
    let server = try Self.pagedServer(pages: pages) { n, _ in
      let items = (0..<200).map { i in
        #"{"item":{"id":"p\#(n)-\#(i)","type":"note","version":1,"state":"active","properties":{"title":"row \#(i) of page \#(n) with some text"}},"metadata":{"item_id":"p\#(n)-\#(i)","tags":[],"extensions":{}}}"#
      }
      return #"{"data":[\#(items.joined(separator: ","))],"next_cursor":"c\#(n)"}"#
    }
    defer { server.stop() }
    let environment = Binary.environment(
      store: folder.store, home: folder.path, ["MARFA_API_URL": server.url.absoluteString, "MARFA_API_KEY": "k1"])
    let process = try Spawned(["--json", "fill"], environment: environment)
    let pid = process.process.processIdentifier
    let start = Date()
    var peakKiB = 0
    var samples: [(Double, Int, Int)] = []
    // Sampled every 20 ms for 8 s, or until it ends.
    waitUntil(within: .seconds(8)) {
      guard process.process.isRunning else { return true }
      let now = HostileServerBinaryTests.highWaterKiB(pid) ?? 0
      peakKiB = max(peakKiB, now)
      if samples.last.map({ Date().timeIntervalSince(start) - $0.0 >= 2 }) ?? true {
        samples.append((Date().timeIntervalSince(start), pages.value, now / 1024))
      }
      return false
    }
    let running = process.process.isRunning
    process.kill()
    _ = process.wait(timeout: 5)
    print(
      "verdicts fill against endless cursors: \(pages.value) pages of 200 rows in 8 s, peak \(peakKiB / 1024) MB; "
        + samples.map { "\(Int($0.0)) s: \($0.1) pages, \($0.2) MB" }.joined(separator: "; "))
    #expect(running, "the fill ended before 8 s: \(process.result())")
    #expect(pages.value >= 20, "only \(pages.value) pages were read")
    #expect(peakKiB > 0 && peakKiB <= 64 * 1024, "peak resident memory \(peakKiB / 1024) MB")
  }

  @Test(
    "a 2xx that is not this write's answer is counted toward dead and the pass goes on",
    arguments: [
      ("not JSON", "not json"),
      ("another row", #"{"item":{"id":"someone-else","version":77}}"#),
      ("the item given twice", #"{"item":{"id":"ID","version":1},"item":{"id":"someone-else","version":77}}"#),
    ])
  func a2xxThatIsNotThisWritesAnswerIsCountedTowardDeadAndThePassGoesOn(_ label: String, _ body: String) async throws {
    // The scripted instance answers every create with this body, on kept-alive connections.
    let instance = ScriptedInstance(
      scenario: Scenario(
        name: "t", rules: [ScriptRule(.route("POST", "/items"), answers: [.status(201, body: body)], repeatsLast: true)]
      ))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    let e = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"]
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: e).code == 0)
    for n in 0..<3 {
      _ = try Binary.run(
        ["items", "create", "--type", "note", "--id", "ID\(n)", "--properties", "{}"], store: t.store, home: t.path)
    }
    // Each pass goes on past every such answer, counting each: none is undelivered for it.
    for pass in 1...QueueLimits.ceiling {
      let drain = try Binary.run(["--json", "drain"], store: t.store, home: t.path, environment: e)
      #expect(drain.code == 0, "\(label), pass \(pass): \(drain)")
      #expect(drain.json?["answered"] == .number(3), "\(label), pass \(pass): \(drain.stdout)")
      #expect(drain.json?["undelivered"] == .number(0), "\(label), pass \(pass)")
    }
    let queue = try Binary.run(["--json", "queue"], store: t.store, home: t.path)
    let rows = queue.json?.arrayValue ?? []
    #expect(rows.count == 3)
    for row in rows {
      #expect(row["verdict"] == .string("dead") && row["refusals"] == .number(5), "\(label): \(row.text)")
    }
  }

  @Test(
    "a stored kind this build does not know is shown unreadable and refused unsent never sent as a create",
    arguments: [("'bogus_kind'", "unreadable:bogus_kind"), ("NULL", "unreadable")])
  func aStoredKindThisBuildDoesNotKnowIsShownUnreadableAndRefusedUnsentNeverSentAsACreate(
    _ sql: String, _ shown: String
  ) async throws {
    let victim = try await DrainVictim(writes: 2)
    let odd = try #require(victim.queued.first)
    if sql == "NULL" {
      try SQLiteFile.exec(
        victim.store,
        """
        PRAGMA writable_schema = ON;
        UPDATE sqlite_schema SET sql = replace(sql, 'kind TEXT NOT NULL CHECK', 'kind TEXT CHECK')
          WHERE type = 'table' AND name = 'queue';
        PRAGMA writable_schema = OFF;
        """)
    }
    try SQLiteFile.exec(
      victim.store, "PRAGMA ignore_check_constraints = ON; UPDATE queue SET kind = \(sql) WHERE id = '\(odd.id)'")

    let table = try Binary.run(["queue"], store: victim.store, home: victim.folder.path)
    #expect(table.code == 0, "\(table)")
    let line = table.stdout.split(separator: "\n").first { $0.contains(odd.id) }.map(String.init) ?? ""
    #expect(line.contains(shown), "\(table.stdout)")
    #expect(!line.contains("create_item"), "\(line)")
    let json = try Binary.run(["--json", "queue"], store: victim.store, home: victim.folder.path)
    let row = json.json?.arrayValue?.first { $0["id"]?.stringValue == odd.id }
    #expect(row?["kind"] == (sql == "NULL" ? .null : .string("bogus_kind")), "\(json.stdout)")
    #expect(row?["kind_unreadable"] == .bool(true))

    let before = victim.instance.requests.count
    let drain = try Binary.run(
      ["--json", "drain"], store: victim.store, home: victim.folder.path, environment: victim.environment)
    #expect(drain.code == 0, "\(drain)")
    #expect(drain.json?["unsent"] == .number(1) && drain.json?["answered"] == .number(1), "\(drain.stdout)")
    let sent = victim.instance.requests.dropFirst(before).filter { $0.method != "GET" }
    #expect(sent.count == 1, "\(sent.map(\.path))")
    #expect(!sent.contains { $0.bodyText.contains(odd.itemId ?? "?") }, "the write of an unknown kind was sent")
    let after = try #require(try await victim.queueNow().first { $0.id == odd.id })
    #expect(after.verdict?.refusal?.reason.contains("does not know") == true, "\(String(describing: after.verdict))")
    #expect(after.sent == false)
  }

  @Test("a drain stopped past its request's deadline and continued takes the answer that came meanwhile")
  func aDrainStoppedPastItsRequestsDeadlineAndContinuedTakesTheAnswerThatCameMeanwhile() async throws {
    let victim = try await DrainVictim(writes: 1)
    let asked = SharedValue(false)
    let stopped = SharedValue(false)
    let server = try RawServer { peer in
      while let head = peer.readHead(timeout: 60) {
        if head.method == "GET", head.path == "/" {
          peer.answer(200, headers: [Self.contract], body: Self.root)
          continue
        }
        let body = peer.readBody(of: head)
        let id = JSONValue.parse(body)?["id"]?.stringValue ?? ""
        asked.update { $0 = true }
        // The answer goes once the drain is stopped: it waits in the socket until SIGCONT.
        while !stopped.value, !peer.stopping { usleep(10_000) }
        peer.answer(201, headers: [Self.contract, "Content-Type: application/json"], body: Self.created(id))
      }
    }
    defer { server.stop() }
    let environment = Binary.environment(
      store: victim.store, home: victim.folder.path,
      ["MARFA_API_URL": server.url.absoluteString, "MARFA_API_KEY": "k1"])
    let process = try Spawned(["--json", "drain"], environment: environment)
    let pid = process.process.processIdentifier
    waitUntil(within: .seconds(20), every: .milliseconds(5)) { asked.value || !process.process.isRunning }
    #expect(asked.value, "the write never came")
    kill(pid, SIGSTOP)
    stopped.update { $0 = true }
    // verdicts's request deadline is 10 s: stopped past it, with the answer waiting.
    sleep(12)
    kill(pid, SIGCONT)
    let ended = process.wait(timeout: 20)
    if !ended { process.kill() }
    let r = process.result()
    #expect(ended)
    #expect(r.code == 0, "\(r)")
    #expect(r.json?["answered"] == .number(1) && r.json?["undelivered"] == .number(0), "\(r.stdout)")
    let w = try #require(try await victim.queueNow().first)
    #expect(w.verdict == .accepted, "\(String(describing: w.verdict))")
    #expect(w.environmentalStreak == 0 && w.lastFailure == nil, "\(String(describing: w.lastFailure))")
  }
}
