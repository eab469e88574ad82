import Foundation
@_spi(Measurement) import MarfaQueue

#if canImport(Glibc)
  import Glibc
#endif
import ScriptedInstance

/// DESIGN 7, row 1: a drain of N creates to the in-process scripted instance over loopback,
/// against the same HTTP client sending the same N requests with no queue, in the same run.
/// Target: drain time ≤ 1.3 × baseline time.
struct DrainBenchmark: Benchmark {
  let name = "drain"
  let summary = "N creates drained to the in-process scripted instance vs the same client with no queue (target ≤ 1.3×)"
  static let target = 1.3
  static let key = "bench-key"
  static let timeout = 10.0

  /// One round's figures, in seconds.
  struct Round {
    var queueing: Double
    var baseline: Double
    var drain: Double
    /// The process's CPU time (user + system, every thread) while each side ran.
    var baselineCPU: Double
    var drainCPU: Double
    /// The same requests through URLSession's async `data(for:)` (not the drain's path).
    var asyncData: Double
    /// The same drain of another store with the writer's record not updated while it runs.
    var drainUnpublished: Double
    /// Time the drain spent writing its progress into the writer's record (in-process), and how many writes.
    var publishing: Double
    var publishWrites: Int
  }

  /// DESIGN 7: publishing the writer record costs at most 3 % of the drain's time.
  static let publishTarget = 0.03

  /// A queued write as it goes on the wire.
  struct Wire: Sendable {
    var body: [UInt8]
    var key: String
  }

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let n = options.writes
    let base = options.folder ?? FileManager.default.temporaryDirectory.path
    let folder = base + "/verdicts-bench-\(UUID().uuidString.lowercased())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }

    var lines = ["writes per round: \(n); rounds: \(options.rounds); stores in \(base)"]
    // Warm-up: a small round of each, not counted (first connections, lazy initialisation).
    _ = try await round(writes: min(n, 200), folder: folder + "/warm", baselineFirst: true)
    var rounds: [Round] = []
    for r in 0..<options.rounds {
      // Alternate which goes first, so neither always meets a warmer or colder machine.
      let result = try await round(writes: n, folder: folder + "/round-\(r)", baselineFirst: r % 2 == 0)
      rounds.append(result)
      lines.append(
        "round \(r + 1): queued in \(Stats.fixed(result.queueing)) s; baseline \(Stats.fixed(result.baseline, 3)) s"
          + " (\(Stats.whole(Double(n) / result.baseline))/s); drain \(Stats.fixed(result.drain, 3)) s"
          + " (\(Stats.whole(Double(n) / result.drain))/s); ratio \(Stats.fixed(result.drain / result.baseline));"
          + " CPU per write \(Stats.whole(result.baselineCPU / Double(n) * 1e6)) µs baseline,"
          + " \(Stats.whole(result.drainCPU / Double(n) * 1e6)) µs drain; async data(for:) \(Stats.fixed(result.asyncData, 3)) s;"
          + " drain without publishing \(Stats.fixed(result.drainUnpublished, 3)) s; publishing \(Stats.fixed(result.publishing * 1000, 2)) ms"
          + " in \(result.publishWrites) record writes")
    }
    let baseline = Stats.median(rounds.map(\.baseline))
    let drain = Stats.median(rounds.map(\.drain))
    let queueing = Stats.median(rounds.map(\.queueing))
    let ratio = Stats.median(rounds.map { $0.drain / $0.baseline })
    let met = ratio <= Self.target
    lines.append("median queueing: \(Stats.fixed(queueing)) s (\(Stats.whole(Double(n) / queueing)) writes/s, not timed against the target)")
    lines.append("median baseline: \(Stats.fixed(baseline, 3)) s, \(Stats.whole(Double(n) / baseline)) writes/s")
    lines.append(
      "median CPU per write (the whole process, instance included): baseline"
        + " \(Stats.whole(Stats.median(rounds.map(\.baselineCPU)) / Double(n) * 1e6)) µs, drain"
        + " \(Stats.whole(Stats.median(rounds.map(\.drainCPU)) / Double(n) * 1e6)) µs")
    lines.append("median drain:    \(Stats.fixed(drain, 3)) s, \(Stats.whole(Double(n) / drain)) writes/s")
    let asyncData = Stats.median(rounds.map(\.asyncData))
    lines.append(
      "for reference, the same requests through URLSession's async data(for:) (not the drain's path):"
        + " median \(Stats.fixed(asyncData, 3)) s, \(Stats.whole(Double(n) / asyncData)) writes/s;"
        + " drain/that \(Stats.fixed(Stats.median(rounds.map { $0.drain / $0.asyncData })))")
    lines.append(
      "median ratio drain/baseline: \(Stats.fixed(ratio)) (ratio of medians \(Stats.fixed(drain / baseline)));"
        + " target ≤ \(Stats.fixed(Self.target, 1)): \(met ? "met" : "MISSED")")
    let unpublished = Stats.median(rounds.map(\.drainUnpublished))
    let cost = Stats.median(rounds.map { $0.drain / $0.drainUnpublished - 1 })
    // The target is judged on the time the drain spends publishing (measured in-process around each
    // record write): the difference of two whole drains on a shared machine is mostly noise.
    let share = Stats.median(rounds.map { $0.publishing / $0.drain })
    let publishMet = share <= Self.publishTarget
    lines.append(
      "publishing the writer record: median \(Stats.fixed(Stats.median(rounds.map(\.publishing)) * 1000, 2)) ms in"
        + " \(Stats.whole(Stats.median(rounds.map { Double($0.publishWrites) }))) record writes per drain (in-process),"
        + " \(Stats.fixed(share * 100, 2)) % of the drain's time; target ≤ \(Stats.fixed(Self.publishTarget * 100, 0)) %:"
        + " \(publishMet ? "met" : "MISSED")")
    lines.append(
      "  for reference, whole drains: median \(Stats.fixed(drain, 3)) s publishing, \(Stats.fixed(unpublished, 3)) s not"
        + " (the same writes to another store, same round); median per-round difference \(Stats.fixed(cost * 100, 1)) %")
    return BenchOutcome(lines: lines, metTargets: met && publishMet)
  }

  /// Queues `writes` creates into a fresh store, then times the baseline and the drain, each
  /// against a fresh instance so the instance does the same work for both.
  func round(writes n: Int, folder: String, baselineFirst: Bool) async throws -> Round {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let drainInstance = ScriptedInstance(scenario: Self.scenario)
    let drainURL = try drainInstance.start()
    defer { drainInstance.stop() }
    let copy = try await WorkingCopy.open(
      store: URL(fileURLWithPath: folder + "/queue.store"),
      server: Server(url: drainURL.absoluteString, key: Self.key, timeout: Self.timeout))
    defer { copy.close() }
    try await copy.fill()

    let clock = ContinuousClock()
    let publishedBefore = copy.progressPublishing
    let queueStart = clock.now
    for i in 0..<n {
      _ = try await copy.createItem(
        type: "note", properties: .object([("title", .string("write \(i)")), ("n", .int(i))]))
    }
    let queueing = Stats.seconds(clock.now - queueStart)
    let wires = try await copy.queue.all().map { Wire(body: Array($0.body.text.utf8), key: $0.idempotencyKey) }
    guard wires.count == n else { throw BenchFailure(message: "queued \(wires.count) writes, wanted \(n)") }

    // The same writes in a second store whose drain does not publish its progress.
    let quietInstance = ScriptedInstance(scenario: Self.scenario)
    let quietURL = try quietInstance.start()
    defer { quietInstance.stop() }
    let quiet = try await WorkingCopy.open(
      store: URL(fileURLWithPath: folder + "/quiet.store"),
      server: Server(url: quietURL.absoluteString, key: Self.key, timeout: Self.timeout))
    defer { quiet.close() }
    quiet.publishesDrainProgress = false
    try await quiet.fill()
    for i in 0..<n {
      _ = try await quiet.createItem(
        type: "note", properties: .object([("title", .string("write \(i)")), ("n", .int(i))]))
    }
    var drainUnpublished = 0.0
    if !baselineFirst {
      settle()
      drainUnpublished = try await runDrain(quiet, instance: quietInstance, writes: n)
    }

    var baseline = (seconds: 0.0, cpu: 0.0)
    var drain = (seconds: 0.0, cpu: 0.0)
    if baselineFirst {
      settle()
      baseline = try await Self.withCPU { try await runBaseline(wires) }
      settle()
      drain = try await Self.withCPU { try await runDrain(copy, instance: drainInstance, writes: n) }
    } else {
      settle()
      drain = try await Self.withCPU { try await runDrain(copy, instance: drainInstance, writes: n) }
      // The store's last checkpoint and its dirty pages are the drain's work, not the baseline's.
      copy.close()
      settle()
      baseline = try await Self.withCPU { try await runBaseline(wires) }
    }
    if baselineFirst {
      settle()
      drainUnpublished = try await runDrain(quiet, instance: quietInstance, writes: n)
    }
    settle()
    let asyncData = try await runBaseline(wires, delivery: .asyncData)
    return Round(
      queueing: queueing, baseline: baseline.seconds, drain: drain.seconds, baselineCPU: baseline.cpu, drainCPU: drain.cpu,
      asyncData: asyncData, drainUnpublished: drainUnpublished,
      publishing: Stats.seconds(copy.progressPublishing.time - publishedBefore.time),
      publishWrites: copy.progressPublishing.writes - publishedBefore.writes)
  }

  /// The drain, timed from the call to its report; every write must come back accepted, once.
  func runDrain(_ copy: WorkingCopy, instance: ScriptedInstance, writes n: Int) async throws -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    let report = try await copy.queue.drain()
    let elapsed = Stats.seconds(clock.now - start)
    let accepted = report.verdicts.filter { $0.verdict == .accepted }.count
    guard report.answered == n, accepted == n else {
      throw BenchFailure(
        message: "the drain answered \(report.answered) and accepted \(accepted) of \(n): \(report.unavailable ?? "")")
    }
    let applied = instance.appliedWrites
    guard applied.count == n, applied.values.allSatisfy({ $0 == 1 }) else {
      throw BenchFailure(message: "the instance applied \(applied.count) keys, not each of \(n) once")
    }
    return elapsed
  }

  /// The same requests through the same client stack with no queue, one at a time.
  func runBaseline(_ wires: [Wire], delivery: BaselineClient.Delivery = .completionHandler) async throws -> Double {
    let instance = ScriptedInstance(scenario: Self.scenario)
    let url = try instance.start()
    defer { instance.stop() }
    let client = BaselineClient(timeout: Self.timeout, delivery: delivery)
    defer { client.invalidate() }
    let items = url.appendingPathComponent("items")
    // The drain asks `GET /` once before sending; so does the baseline (it also opens the connection).
    _ = try await client.send("GET", url, headers: [:], body: nil, key: Self.key)
    let clock = ContinuousClock()
    let start = clock.now
    for w in wires {
      let answer = try await client.send(
        "POST", items, headers: ["Content-Type": "application/json", "Idempotency-Key": w.key], body: w.body,
        key: Self.key)
      guard answer.status == 201 || answer.status == 200 else {
        throw BenchFailure(message: "the baseline got \(answer.status) for POST /items")
      }
    }
    let elapsed = Stats.seconds(clock.now - start)
    guard instance.appliedWrites.count == wires.count else {
      throw BenchFailure(message: "the baseline's instance applied \(instance.appliedWrites.count) of \(wires.count)")
    }
    return elapsed
  }

  /// Runs a timed step and returns its figure with the CPU time the whole process spent meanwhile.
  static func withCPU(_ body: () async throws -> Double) async throws -> (seconds: Double, cpu: Double) {
    let before = processCPU()
    let seconds = try await body()
    return (seconds, processCPU() - before)
  }

  /// User plus system CPU time of this process so far, in seconds.
  static func processCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return s(usage.ru_utime) + s(usage.ru_stime)
  }

  /// Flushes dirty pages to disk before a timed step, so neither side pays for the other's writes.
  func settle() {
    #if canImport(Glibc)
      Glibc.sync()
    #endif
  }

  static let scenario = Scenario(name: "bench", summary: "the drain benchmark", types: [ItemType("note")])
}
