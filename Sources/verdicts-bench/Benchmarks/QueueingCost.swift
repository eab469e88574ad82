import Foundation
import MarfaQueue

/// Queueing through the library (docs/performance.md, "Queueing: shared durable commits"): writes a
/// second into a fresh store, each call returning once its write is durable, from eight callers at
/// once and from one, with shared commits and (the same run, the switch off) without: one caller
/// without is the path every call took before commits were shared.
struct QueueingCost {
  /// Eight callers reach at least this many writes a second.
  static let target = 3_000.0

  /// One shape of the measurement.
  struct Shape {
    var callers: Int
    var shared: Bool
    var label: String {
      (callers == 1 ? "1 caller" : "\(callers) callers") + (shared ? "" : ", commits not shared")
    }
  }

  /// Eight callers with shared commits first (``met`` reads it), then the others.
  static let shapes = [
    Shape(callers: 8, shared: true), Shape(callers: 8, shared: false), Shape(callers: 1, shared: true),
    Shape(callers: 1, shared: false),
  ]

  /// Writes a second per round, by shape.
  var rates: [[Double]]

  /// Runs every shape `rounds` times, `writes` writes each time, in stores under `folder`.
  static func measure(writes: Int, rounds: Int, folder: String) async throws -> QueueingCost {
    var rates = Array(repeating: [Double](), count: shapes.count)
    for r in 0..<rounds {
      // Rotate which shape goes first, so none always meets a warmer or colder machine.
      for k in 0..<shapes.count {
        let i = (k + r) % shapes.count
        rates[i].append(try await rate(shapes[i], writes: writes, path: folder + "/queueing-\(r)-\(i).store"))
      }
    }
    return QueueingCost(rates: rates)
  }

  /// One round of one shape: a fresh store (never filled: it takes and queues writes), `writes`
  /// creates split among the callers; writes a second from the first call to the last return.
  static func rate(_ shape: Shape, writes: Int, path: String) async throws -> Double {
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: path), server: nil)
    defer { copy.close() }
    copy.sharesCommits = shape.shared
    let each = writes / shape.callers
    let clock = ContinuousClock()
    let start = clock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
      for caller in 0..<shape.callers {
        group.addTask {
          for i in 0..<each {
            _ = try await copy.createItem(
              type: "note", properties: .object([("caller", .int(caller)), ("n", .int(i))]))
          }
        }
      }
      try await group.waitForAll()
    }
    let seconds = Stats.seconds(clock.now - start)
    let queued = try await copy.queue.all().count
    guard queued == each * shape.callers else {
      throw BenchFailure(message: "queueing: \(queued) writes in the store, wanted \(each * shape.callers)")
    }
    return Double(queued) / seconds
  }

  /// Whether eight callers met the target.
  var met: Bool { Stats.median(rates[0]) >= Self.target }

  /// A row per shape: the median with the mean ± its standard error; eight callers with their target.
  var rows: [String] {
    Self.shapes.indices.map { i in
      let r = rates[i]
      var row =
        "queueing, \(Self.shapes[i].label): median \(Stats.whole(Stats.median(r))) writes/s"
        + " (mean \(Stats.whole(Stats.mean(r))) ± \(Stats.whole(Stats.standardError(r))), \(r.count) rounds)"
      if i == 0 {
        row += "; target ≥ \(Stats.whole(Self.target)): \(met ? "met" : "MISSED")"
      }
      return row
    }
  }
}

/// `verdicts-bench queueing`: ``QueueingCost`` alone (the drain section prints it too).
struct QueueingBenchmark: Benchmark {
  let name = "queueing"
  let summary = "writes a second queued from 8 callers and from 1, commits shared and not (target ≥ 3,000/s for 8)"

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let folder = (options.folder ?? FileManager.default.temporaryDirectory.path) + "/verdicts-queueing-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cost = try await QueueingCost.measure(writes: options.writes, rounds: options.rounds, folder: folder)
    return BenchOutcome(
      lines: ["writes per round: \(options.writes); rounds: \(options.rounds)"] + cost.rows, metTargets: cost.met)
  }
}
