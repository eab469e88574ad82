import Foundation
import MarfaQueue

#if canImport(Glibc)
  import Glibc
#endif

/// A drain over a link with latency (docs/performance.md, "A link with latency"): the built
/// `verdicts drain` sends N creates to the scripted instance (`verdicts instance`, a process of
/// its own) through ``DelayProxy``, which adds a fixed round trip (20 and 50 ms). The contract has
/// one write in flight at a time (each write is sent once the one before it is answered: a later
/// write may depend on it), and reads the row a taken write landed on again before the next goes
/// (docs/protocol.md, "After a success"), so the floor is two round trips a write (the write and
/// that read), plus the pass start's one request (`GET /`, the instance's contract and id).
///
/// Rows for each round trip: the drain's time (process start to exit) against that floor
/// (target ≤ 1.05×); requests a write, every request other than a write named; TCP connections a
/// drain (one, kept alive). Beside them, the same requests from a raw keep-alive socket client
/// through the same proxy: what the proxy and this machine allow.
struct LatencyBenchmark: Benchmark {
  let name = "latency"
  let summary =
    "`verdicts drain` through a proxy adding 20 and 50 ms a round trip: time against a round trip a request the contract asks (≤ 1.05×: the write and the read after its answer), requests a write, connections a drain (1)"
  static let roundTrips: [Duration] = [.milliseconds(20), .milliseconds(50)]
  static let target = 1.05
  static let key = "secretkey123"
  /// What each request other than a write is for; a request not named here is unexplained.
  static let named = [
    "GET /": "the pass start: the instance's contract and id",
    "GET /items/{id}": "the read after an answer: the row the write landed on, read fresh, as the contract asks",
  ]
  /// The requests the contract asks a write: the write, and the read after its answer.
  static let requestsAWrite = 2

  /// A request as the rows name it: a row's id in its path is `{id}`.
  static func named(_ request: String) -> String {
    for prefix in ["GET /items/", "GET /edges/"] where request.hasPrefix(prefix) && request.count > prefix.count {
      return prefix + "{id}"
    }
    return request
  }

  /// One drain's figures.
  struct Round {
    var seconds: Double
    var floorClient: Double
    var connections: Int
    var requests: [String]
    var unparsed: Int
    /// Exec → the first connection at the proxy, and the last answer → exit.
    var startup: Double
    var ending: Double
  }

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let writes = options.quick ? 50 : 200
    let base = options.folder ?? FileManager.default.temporaryDirectory.path
    let folder = base + "/verdicts-bench-latency-\(UUID().uuidString.lowercased().prefix(8))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let drainInstance = try InstanceProcess(folder: folder, label: "drain")
    defer { drainInstance.stop() }
    let floorInstance = try InstanceProcess(folder: folder, label: "floor")
    defer { floorInstance.stop() }

    var rows: [Row] = []
    var notes = [
      "writes per drain: \(writes); rounds: \(options.rounds); the instance: `verdicts instance --scenario empty`, its own process"
    ]
    for rtt in Self.roundTrips {
      let ms = Int(rtt.components.seconds * 1000 + rtt.components.attoseconds / 1_000_000_000_000_000)
      var rounds: [Round] = []
      for r in 0..<options.rounds {
        do {
          let round = try await Self.round(
            writes: writes, rtt: rtt, folder: folder + "/\(ms)ms-\(r)", drain: drainInstance, floor: floorInstance)
          rounds.append(round)
          notes.append(
            "  \(ms) ms round \(r + 1): drain \(Stats.fixed(round.seconds, 3)) s (start-up \(Stats.fixed(round.startup * 1000, 1)) ms,"
              + " after the last answer \(Stats.fixed(round.ending * 1000, 1)) ms), raw client \(Stats.fixed(round.floorClient, 3)) s;"
              + " \(round.requests.count) requests over \(round.connections) connection(s)")
        } catch {
          notes.append("  \(ms) ms round \(r + 1): failed: \(error)")
        }
      }
      rows += Self.rows(rounds, writes: writes, rtt: rtt, ms: ms, planned: options.rounds)
    }
    return Row.outcome(rows, notes: notes)
  }

  /// The rows of one round trip from its rounds; a round trip with no round measured says so, MISSED.
  static func rows(_ rounds: [Round], writes n: Int, rtt: Duration, ms: Int, planned: Int) -> [Row] {
    let what = "drain of \(n) creates over \(ms) ms a round trip"
    guard !rounds.isEmpty else {
      return [
        Row(name: what, figure: "not measured: every round failed (above)", target: "≤ \(target)× floor", met: false)
      ]
    }
    let rttSeconds = Stats.seconds(rtt)
    let floor = Double(n * requestsAWrite + 1) * rttSeconds
    let ratios = rounds.map { $0.seconds / floor }
    let ratio = Stats.median(ratios)
    let seconds = Stats.median(rounds.map(\.seconds))
    let raw = Stats.median(rounds.map(\.floorClient))
    let over = (seconds - floor) / Double(n) * 1000
    var rows = [
      Row(
        name: what,
        figure:
          "median \(Stats.fixed(seconds, 3)) s over \(rounds.count) of \(planned) rounds; floor (\(n) writes and their reads + the pass start) × \(ms) ms"
          + " = \(Stats.fixed(floor, 2)) s; ratio \(Stats.fixed(ratio, 3)) (rounds \(ratios.map { Stats.fixed($0, 3) }.joined(separator: ", ")));"
          + " \(Stats.fixed(over, 2)) ms a write over the floor; the raw socket client through the same proxy \(Stats.fixed(raw / floor, 3))×",
        target: "≤ \(Stats.fixed(target, 2))× floor", met: ratio <= target)
    ]
    // Requests: every round's, each by method and path; writes are the POSTs to /items.
    var perRound: [String] = []
    var requestsMet = true
    for round in rounds {
      let writesSent = round.requests.filter { $0 == "POST /items" }.count
      var extra: [String: Int] = [:]
      for r in round.requests where r != "POST /items" { extra[named(r), default: 0] += 1 }
      let unexplained = extra.keys.filter { named[$0] == nil }
      if writesSent != n || !unexplained.isEmpty || round.unparsed > 0 { requestsMet = false }
      perRound.append(
        "\(Stats.fixed(Double(writesSent) / Double(n), 2))"
          + (extra.isEmpty
            ? "" : " + " + extra.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ")))
    }
    let names = Set(rounds.flatMap(\.requests).map(named)).subtracting(["POST /items"]).sorted()
      .map { "\($0): \(named[$0] ?? "unexplained")" }
    rows.append(
      Row(
        name: "  requests a write, \(ms) ms",
        figure:
          "writes (POST /items) a write, then every other request: \(Set(perRound).sorted().joined(separator: " | "))"
          + (names.isEmpty ? "" : "; " + names.joined(separator: "; "))
          + (rounds.contains { $0.unparsed > 0 } ? "; some requests could not be read" : ""),
        target: "1.00, every other request named", met: requestsMet))
    let connections = rounds.map(\.connections)
    rows.append(
      Row(
        name: "  TCP connections a drain, \(ms) ms",
        figure: "\(connections.map(String.init).joined(separator: ", ")) (a round each)",
        target: "1, kept alive", met: connections.allSatisfy { $0 == 1 }))
    return rows
  }

  /// One round: a fresh store of `n` creates filled through a fresh proxy, drained by the built
  /// binary through it; then the same requests from the raw client through a proxy to the other instance.
  static func round(
    writes n: Int, rtt: Duration, folder: String, drain: InstanceProcess, floor: InstanceProcess
  ) async throws -> Round {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let proxy = try DelayProxy(upstream: drain.port, rtt: rtt)
    defer { proxy.stop() }
    let store = folder + "/queue.store"
    let server = Server(url: proxy.url, key: key, timeout: 10)
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: store), server: server)
    try await copy.fill()
    copy.close()
    try await StoreCache.queueCreates(store: store, server: server, count: n, label: "latency")
    let wires = try await Self.wires(store: store, server: server)

    proxy.reset()
    var env = Binaries.environment(home: folder)
    env["MARFA_API_KEY"] = key
    let err = folder + "/drain.stderr"
    let started = DelayProxy.now()
    let process = try SpawnedProcess.run(
      try Binaries.verdicts(), ["drain", "--store", store, "--url", proxy.url], environment: env, stderr: err,
      limit: .seconds(600))
    let ended = DelayProxy.now()
    let counts = proxy.current
    let truth = try PaneTitles.truth(store: store)
    guard process.wait() == 0, truth.counts[0] == 0 else {
      let text = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
      throw BenchFailure(message: "verdicts drain exited \(process.wait()) leaving \(truth): \(text.prefix(300))")
    }

    let floorProxy = try DelayProxy(upstream: floor.port, rtt: rtt)
    defer { floorProxy.stop() }
    let client = try RawKeepAliveClient(port: floorProxy.port)
    let auth = ("Authorization", "Bearer \(key)")
    let clock = ContinuousClock()
    let start = clock.now
    _ = try client.send("GET", "/", headers: [("Accept", "application/json"), auth], body: [])
    try client.postItems(wires, key: key, who: "the raw client")
    let raw = Stats.seconds(clock.now - start)
    return Round(
      seconds: process.seconds, floorClient: raw, connections: counts.connections, requests: counts.requests,
      unparsed: counts.unparsed,
      startup: counts.firstConnection > 0
        ? Double(counts.firstConnection - min(started, counts.firstConnection)) / 1e9 : .nan,
      ending: counts.lastAnswer > 0 ? Double(ended - min(ended, counts.lastAnswer)) / 1e9 : .nan)
  }

  /// The store's queued writes as they go on the wire, each under a fresh key (the raw client
  /// sends them to the other instance).
  static func wires(store: String, server: Server) async throws -> [DrainBenchmark.Wire] {
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: store), server: server)
    defer { copy.close() }
    return try await copy.queue.all().map {
      DrainBenchmark.Wire(body: Array($0.body.text.utf8), key: UUID().uuidString.lowercased())
    }
  }
}

/// The scripted instance as a process of its own: `verdicts instance --port P --scenario empty`.
final class InstanceProcess: Sendable {
  let port: UInt16
  private let process: SpawnedProcess

  init(folder: String, label: String) throws {
    port = try Self.freePort()
    var env = Binaries.environment(home: folder + "/home-\(label)")
    env["MARFA_API_KEY"] = LatencyBenchmark.key
    let null = open("/dev/null", O_RDWR)
    defer { close(null) }
    let log = open(folder + "/instance-\(label).log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    defer { close(log) }
    process = try SpawnedProcess(
      try Binaries.verdicts(), ["instance", "--port", "\(port)", "--scenario", "empty"], environment: env, stdin: null,
      stdout: log, stderr: log)
    let deadline = ContinuousClock.now + .seconds(10)
    while !Self.accepts(port) {
      guard process.isRunning, ContinuousClock.now < deadline else {
        process.stop(SIGKILL, grace: .seconds(1))
        throw BenchFailure(
          message: "`verdicts instance --port \(port)` did not listen (\(folder)/instance-\(label).log)")
      }
      usleep(20_000)
    }
  }

  func stop() { process.stop(SIGTERM, grace: .seconds(5)) }

  /// A port nothing listens on now (bound, read, let go).
  static func freePort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = DelayProxy.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard ok else { throw BenchFailure(message: "no free port on loopback") }
    return UInt16(bigEndian: address.sin_port)
  }

  /// Whether something accepts a connection on 127.0.0.1:`port`.
  static func accepts(_ port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = DelayProxy.loopback(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    } == 0
  }
}
