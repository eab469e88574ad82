import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The remote screen (docs/remote.md; docs/performance.md, "The remote screen"): the built
/// `verdicts --store bench-device:PATH watch` on the bench's pty, reaching a store on "another
/// machine" through the system's ssh: a real sshd on a loopback port (``BenchSSHD``) behind a
/// counting, throttling proxy (``ThrottleProxy``), unthrottled and at 2,560 B/s from the device.
/// The device is this machine: a store of N waiting writes and a scripted instance in this
/// process; `verdicts drain` runs on the store locally, as it would on the device.
///
/// Each round: the first view (every byte through the proxy until the link is quiet, ssh's
/// handshake included), 5 s idle, then a drain of N writes; the bytes from the device from the
/// drain's start until the screen shows its end, a verdict; and how long after `verdicts drain`
/// exits the screen's pane titles show the store's final counts. The bytes are TCP payload
/// through the proxy: ssh's framing, MACs and keepalives included, after ssh's compression.
/// The docs/measure/remote-screen.sh + link-relay.py measurement, repeatable.
struct RemoteBenchmark: Benchmark {
  let name = "remote"
  let summary =
    "`verdicts --store HOST:PATH watch` over a real sshd through a counting proxy, unthrottled and 2,560 B/s: first view (< 50 KB), idle 5 s (≤ 100 B: ssh's keepalive), bytes a verdict (≤ 200 B), the screen at the drain's end (≤ 2 s at 2,560 B/s)"
  static let host = "bench-device"
  static let slowRate = 2560.0
  static let firstViewTarget = 50 * 1024
  static let idleTarget = 100
  static let idleSeconds = 5
  static let verdictTarget = 200.0
  static let lagTarget = 2.0
  /// A drain's round trip to the instance through ``DelayProxy``: one write in flight at a time,
  /// so about 45 verdicts a second here, near the pace of docs/remote.md's figures (47).
  static let pacedRoundTrip: Duration = .milliseconds(20)

  /// One measured configuration: the pty's size, the link's rate (nil: unthrottled), and whether
  /// the drain is paced (through a 20 ms round trip) or as fast as the in-process instance answers.
  struct Setup {
    var width: Int
    var height: Int
    var rate: Double?
    var paced: Bool

    var label: String {
      "\(width)×\(height), \(rate.map { "\(Stats.whole($0)) B/s" } ?? "unthrottled"), \(paced ? "paced drain" : "fast drain")"
    }
  }

  static let setups = [
    Setup(width: 80, height: 24, rate: nil, paced: true), Setup(width: 80, height: 24, rate: slowRate, paced: true),
    Setup(width: 160, height: 48, rate: nil, paced: true), Setup(width: 160, height: 48, rate: slowRate, paced: true),
    Setup(width: 80, height: 24, rate: slowRate, paced: false),
    Setup(width: 160, height: 48, rate: slowRate, paced: false),
  ]

  /// One round's figures.
  struct Round {
    var firstView: Int
    var idleDown: Int
    var idleUp: Int
    var drainDown: Int
    var drainUp: Int
    var drainSeconds: Double
    var lag: Double
  }

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let writes = options.writesGiven ? options.writes : options.quick ? 500 : 2_000
    let rounds = min(options.rounds, 3)
    if let why = BenchSSHD.missing { return Row.outcome(Self.notMeasured(why)) }
    let base = options.folder ?? FileManager.default.temporaryDirectory.path
    let folder = base + "/verdicts-bench-remote-\(UUID().uuidString.lowercased().prefix(8))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let sshd: BenchSSHD
    do {
      sshd = try BenchSSHD(folder: folder + "/sshd")
    } catch {
      return Row.outcome(Self.notMeasured("sshd did not start: \(error)"))
    }
    defer { sshd.stop() }

    var rows: [Row] = []
    var notes = [
      "the device: this machine, a real sshd on 127.0.0.1:\(sshd.port) behind a proxy counting TCP payload each way"
        + " (ssh's framing and keepalives included); drains of \(Stats.whole(Double(writes))) waiting creates to an"
        + " in-process scripted instance, `verdicts drain` run on the store here, paced (through a proxy adding"
        + " \(Stats.whole(Stats.seconds(Self.pacedRoundTrip) * 1000)) ms a round trip: one write in flight, about 45 a second here)"
        + " or fast (as fast as the instance answers); \(rounds) round(s) each, medians"
    ]
    let setups = Self.setups.filter { s in
      options.only.map { s.label.replacing("×", with: "x").contains($0.replacing("×", with: "x")) } ?? true
    }
    for setup in setups {
      let label = setup.label
      var done: [Round] = []
      for r in 0..<rounds {
        do {
          let round = try await Self.round(writes: writes, setup: setup, sshd: sshd, base: folder)
          done.append(round)
          notes.append(
            "  \(label) round \(r + 1): first view \(Stats.whole(Double(round.firstView))) B; idle \(Self.idleSeconds) s"
              + " \(round.idleDown) B down, \(round.idleUp) B up; drain \(Stats.fixed(round.drainSeconds, 1)) s,"
              + " \(Stats.whole(Double(round.drainDown))) B down, \(Stats.whole(Double(round.drainUp))) B up;"
              + " the screen showed the end \(Stats.fixed(round.lag, 2)) s after")
        } catch {
          notes.append("  \(label) round \(r + 1): failed: \(error)")
        }
      }
      rows += Self.rows(done, label: label, writes: writes, throttled: setup.rate != nil, planned: rounds)
    }
    do {
      let cache = try StoreCache(options)
      let large = try await cache.store(.generated, options.middle) { notes.append("  \($0)") }
      let (bytes, shown) = try await Self.firstView(store: large, sshd: sshd, base: folder)
      rows.append(
        Row(
          name: "first view of a generated \(Stats.whole(Double(options.middle)))-write store, 80×24, unthrottled",
          figure: "\(Stats.whole(Double(bytes))) B (\(shown); ssh's handshake included)",
          target: "< 50 KB", met: bytes < Self.firstViewTarget))
    } catch {
      rows.append(
        Row(
          name: "first view of a generated \(Stats.whole(Double(options.middle)))-write store, 80×24",
          figure: "not measured: \(error)", target: "< 50 KB", met: false))
    }
    return Row.outcome(rows, notes: notes)
  }

  /// The section's rows when it cannot run: each target, MISSED, saying why.
  static func notMeasured(_ why: String) -> [Row] {
    [
      ("first view", "< 50 KB"), ("idle \(idleSeconds) s", "≤ \(idleTarget) B (ssh's keepalive)"),
      ("bytes a verdict during a drain", "≤ 200 B"), ("the screen at the drain's end, 2,560 B/s", "≤ 2 s"),
    ].map { Row(name: $0.0, figure: "not measured: \(why)", target: $0.1, met: false) }
  }

  /// The rows of one geometry and rate from its rounds; none measured: each says so, MISSED.
  static func rows(_ rounds: [Round], label: String, writes: Int, throttled: Bool, planned: Int) -> [Row] {
    guard !rounds.isEmpty else {
      return [Row(name: label, figure: "not measured: every round failed (above)", target: "every round", met: false)]
    }
    func median(_ f: (Round) -> Double) -> Double { Stats.median(rounds.map(f)) }
    let of = rounds.count == planned ? "" : " (\(rounds.count) of \(planned) rounds)"
    let first = median { Double($0.firstView) }
    let idle = median { Double($0.idleDown) }
    let perVerdict = median { Double($0.drainDown) / Double(writes) }
    let lag = median(\.lag)
    let seconds = median(\.drainSeconds)
    let pace = Double(writes) / seconds
    return [
      Row(
        name: "\(label): first view, \(Stats.whole(Double(writes))) waiting",
        figure: "\(Stats.whole(first)) B, ssh's handshake included\(of)", target: "< 50 KB",
        met: first < Double(firstViewTarget)),
      Row(
        name: "\(label): idle \(idleSeconds) s, device → screen",
        figure:
          "\(Stats.whole(idle)) B (screen → device \(Stats.whole(median { Double($0.idleUp) })) B: ssh's keepalive and its answer)",
        target: "≤ \(idleTarget) B (0 besides ssh's keepalive)", met: idle <= Double(idleTarget)),
      Row(
        name: "\(label): during a drain, device → screen a verdict",
        figure:
          "\(Stats.whole(perVerdict)) B (\(Stats.whole(median { Double($0.drainDown) })) B for \(Stats.whole(Double(writes)))"
          + " verdicts at \(Stats.whole(pace))/s, until the screen showed the end)",
        target: "≤ 200 B", met: perVerdict <= verdictTarget),
      Row(
        name: "\(label): the screen shows the drain's end",
        figure: "\(Stats.fixed(lag, 2)) s after `verdicts drain` exits",
        target: throttled ? "≤ 2 s" : nil, met: throttled ? lag <= lagTarget : nil),
    ]
  }

  /// The environment that makes the built `verdicts` reach `sshd` as `host` through `proxy`.
  static func environment(home: String, sshd: BenchSSHD, proxy: ThrottleProxy) throws -> [String: String] {
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    let config = try sshd.config(host: host, port: proxy.port, name: "ssh_config-\(proxy.port)")
    var env = Binaries.environment(home: home)
    env["VERDICTS_SSH"] = "ssh -F \(config)"
    env["VERDICTS_REMOTE_PATH"] = try Binaries.verdicts()
    return env
  }

  /// Starts the remote screen on a fresh pty, waits for the store's counts on it and then for the
  /// link to go quiet; returns the bytes down so far.
  static func start(
    store: String, width: Int, height: Int, env: [String: String], proxy: ThrottleProxy
  ) async throws -> (PseudoTerminal, ScreenFollower, Int) {
    let pty = try PseudoTerminal(
      executable: try Binaries.verdicts(), arguments: ["--store", "\(host):\(store)", "watch"], environment: env,
      width: width, height: height)
    let follower = ScreenFollower(pty)
    let truth = try PaneTitles.truth(store: store)
    guard await follower.waitFor(truth, limit: .seconds(120)) != nil else {
      follower.catchUp()
      let screen = (0..<follower.model.height).map(follower.model.line).joined(separator: "\n")
      pty.finish()
      throw BenchFailure(message: "the remote screen never showed \(truth); it showed:\n\(screen)")
    }
    // The first view is whole once nothing crossed for a second (ssh's keepalive waits 5 s).
    var last = proxy.current.down
    var quietSince = ContinuousClock.now
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now - quietSince < .seconds(1) && ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(50))
      let now = proxy.current.down
      if now != last {
        last = now
        quietSince = .now
      }
    }
    follower.catchUp()
    return (pty, follower, last)
  }

  static func round(writes: Int, setup: Setup, sshd: BenchSSHD, base: String) async throws -> Round {
    let stage = try await DrainStage.make(in: base, label: "remote", copying: nil, writes: writes)
    defer { stage.tearDown() }
    let proxy = try ThrottleProxy(upstream: sshd.port, rate: setup.rate)
    defer { proxy.stop() }
    var pacer: DelayProxy?
    if setup.paced {
      guard let port = URL(string: stage.server.url)?.port else {
        throw BenchFailure(message: "the instance's URL \(stage.server.url) has no port")
      }
      pacer = try DelayProxy(upstream: UInt16(port), rtt: pacedRoundTrip)
    }
    defer { pacer?.stop() }
    let env = try environment(home: stage.folder + "/home", sshd: sshd, proxy: proxy)
    let (pty, follower, firstView) = try await start(
      store: stage.store, width: setup.width, height: setup.height, env: env, proxy: proxy)
    defer { pty.finish() }
    let before = proxy.current
    try await Task.sleep(for: .seconds(idleSeconds))
    let idle = proxy.current
    let drain = try stage.startDrain(url: pacer?.url)
    let final = try stage.finished(drain)
    let end = drain.ended!.at
    guard let frame = await follower.waitFor(final, limit: .seconds(180)) else {
      throw BenchFailure(message: "the remote screen never showed \(final); it showed \(follower.titles)")
    }
    let after = proxy.current
    return Round(
      firstView: firstView, idleDown: idle.down - before.down, idleUp: idle.up - before.up,
      drainDown: after.down - idle.down, drainUp: after.up - idle.up, drainSeconds: drain.seconds,
      lag: max(0, Stats.seconds(frame.last.time - end)))
  }

  /// The first view of a kept store at 80×24, unthrottled: bytes down and the counts it showed.
  static func firstView(store: String, sshd: BenchSSHD, base: String) async throws -> (Int, String) {
    let proxy = try ThrottleProxy(upstream: sshd.port, rate: nil)
    defer { proxy.stop() }
    let env = try environment(home: base + "/home-first-view", sshd: sshd, proxy: proxy)
    let (pty, follower, bytes) = try await start(store: store, width: 80, height: 24, env: env, proxy: proxy)
    defer { pty.finish() }
    return (bytes, follower.titles.description)
  }
}
