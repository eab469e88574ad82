import Foundation
import MarfaQueue
import ScriptedInstance

/// DESIGN 7, row 5: bytes the real `verdicts watch` (ncurses) sends to a 120×40 pseudo-terminal:
/// the first paint, a frame where one verdict changes (target ≤ 1 KB), ten idle seconds (target 0).
/// The store is real (100,000 generated writes, filled from the scripted instance); the verdict is
/// committed by this process, the store's writer, draining one write to the instance.
struct BytesBenchmark: Benchmark {
  let name = "bytes"
  let summary =
    "bytes from the real ncurses `verdicts watch` on a 120×40 pty: first paint, one verdict (≤ 1 KB), 10 s idle (0)"
  static let changeTarget = 1024
  static let idleSeconds = 10
  static let storeWrites = 100_000

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let verdicts = try Binaries.verdicts()
    let stage = try await FilledStore.make(options, label: "bytes")
    defer { stage.tearDown() }
    let (folder, store, instance, server) = (stage.folder, stage.store, stage.instance, stage.server)
    // Nothing a drain would send: no waiting writes, no credential_refused blocks.
    var generator = StoreGenerator(writes: Self.storeWrites, mix: .init(waiting: false, credentialRefused: false))
    generator.instanceId = instance.instanceId
    generator.writeMeta = false
    _ = try await generator.generate(at: store)

    // This process is the writer; the TUI follows as a reader, as over SSH.
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: store), server: server)
    defer { copy.close() }
    guard copy.handle.isWriter else { throw BenchFailure(message: "the bench is not the store's writer") }
    _ = try await copy.createItem(type: "note", properties: .object([("title", .string("the first watched write"))]))

    var env = ProcessInfo.processInfo.environment
    env["TERM"] = "xterm-256color"
    env["LANG"] = "C.UTF-8"
    env["LC_ALL"] = "C.UTF-8"
    env.removeValue(forKey: "NO_COLOR")
    env.removeValue(forKey: "VERDICTS_THEME")
    env["HOME"] = folder
    env["XDG_CONFIG_HOME"] = folder + "/config"
    let pty = try PseudoTerminal(
      executable: verdicts, arguments: ["watch", "--store", store], environment: env, width: 120, height: 40)
    defer { pty.finish() }
    let clock = ContinuousClock()
    let started = clock.now
    await pty.settle(quiet: .milliseconds(700), limit: .seconds(10))
    let firstPaint = pty.total
    guard firstPaint > 0 else { throw BenchFailure(message: "verdicts watch drew nothing") }
    var lines = [
      "store: \(Stats.whole(Double(Self.storeWrites))) generated writes + 1 queued; `verdicts watch` at 120×40, TERM=xterm-256color, LANG=C.UTF-8",
      "first paint: \(Stats.whole(Double(firstPaint))) B (in \(Stats.fixed(Stats.seconds((pty.lastArrival ?? started) - started) * 1000, 0)) ms)",
    ]

    // Idle: nothing changes for ten seconds.
    let idleStart = clock.now
    try await Task.sleep(for: .seconds(Self.idleSeconds))
    let idle = pty.bytes(from: idleStart, to: clock.now).count
    lines.append("idle \(Self.idleSeconds) s: \(idle) B; target 0: \(idle == 0 ? "met" : "MISSED")")

    // One verdict at a time: drain the one waiting write, count what the frame(s) send; then
    // queue the next (its own frame, counted apart).
    var verdictBytes: [Double] = []
    var queuedBytes: [Double] = []
    var screenMs: [Double] = []
    let rounds = max(3, min(options.updates, 10))
    for r in 0..<rounds {
      let before = clock.now
      let report = try await copy.queue.drain()
      let drained = clock.now
      guard report.answered == 1 else { throw BenchFailure(message: "the drain answered \(report.answered), not 1") }
      try await Task.sleep(for: .milliseconds(1_500))
      // The verdict's commit is the drain's last store write but one: the frame that shows it is
      // the last to arrive after the drain returned (or, sooner, the one before).
      if let last = pty.arrivals(from: before, to: clock.now).last {
        screenMs.append(max(0, Stats.seconds(last - drained)) * 1000)
      }
      verdictBytes.append(Double(pty.bytes(from: before, to: clock.now).count))
      let queued = clock.now
      _ = try await copy.createItem(type: "note", properties: .object([("title", .string("watched write \(r + 2)"))]))
      try await Task.sleep(for: .milliseconds(1_500))
      queuedBytes.append(Double(pty.bytes(from: queued, to: clock.now).count))
    }
    let change = Stats.median(verdictBytes)
    let worst = verdictBytes.max() ?? 0
    let changeOK = worst <= Double(Self.changeTarget)
    lines.append(
      "one verdict (drained by another process): median \(Stats.whole(change)) B, largest \(Stats.whole(worst)) B over"
        + " \(rounds) verdicts (\(verdictBytes.map { Stats.whole($0) }.joined(separator: ", ")));"
        + " target ≤ \(Self.changeTarget) B: \(changeOK ? "met" : "MISSED")")
    lines.append(
      "drain returned → the last byte of its frames on the terminal: median \(Stats.fixed(Stats.median(screenMs), 1)) ms,"
        + " largest \(Stats.fixed(screenMs.max() ?? 0, 1)) ms (the TUI draws at most ten frames a second)")
    lines.append("one write queued (not a target): median \(Stats.whole(Stats.median(queuedBytes))) B")
    return BenchOutcome(lines: lines, metTargets: idle == 0 && changeOK)
  }
}

/// The built binaries beside this one.
enum Binaries {
  /// `verdicts`, built in the same configuration as this bench.
  static func verdicts() throws -> String {
    let folder = (PanesBenchmark.selfPath as NSString).deletingLastPathComponent
    let path = folder + "/verdicts"
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw BenchFailure(message: "\(path) is not built: swift build -c release --product verdicts")
    }
    return path
  }
}
