import CSQLite
import Foundation
import MarfaQueue
import VerdictsUI

/// Stores of 100,000 and 1,000,000 writes with mixed verdicts; the time
/// from opening the store to the first frame at 120×40, the peak memory, and the time from a
/// verdict committed by another connection to the frame that shows it.
///
/// Each measurement runs in a child process of its own (`verdicts-bench panes-child`), so
/// each store size gets its own memory peak (`VmHWM`) and its own cold start.
///
/// In-process (diagnostic): no terminal, no exec, the renderer's grid only; the generated stores of
/// ``StoreCache`` at the first two sizes. What a person sees is measured by the pty sections.
struct PanesBenchmark: Benchmark {
  let name = "inprocess"
  let summary =
    "in-process (diagnostic): first frame, peak memory, one verdict → frame, without a terminal (old targets)"
  var diagnostic: Bool { true }

  struct Target {
    var writes: Int
    var firstMs: Double
    var peakMB: Double
  }
  static let targets = [
    Target(writes: 100_000, firstMs: 300, peakMB: 100), Target(writes: 1_000_000, firstMs: 1000, peakMB: 200),
  ]
  static let updateTargetMs = 50.0

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let cache = try StoreCache(options)
    var lines: [String] = []
    var met = true
    for writes in Array(Set([options.small, options.middle])).sorted() {
      let target =
        Self.targets.first { $0.writes == writes } ?? Target(writes: writes, firstMs: .infinity, peakMB: .infinity)
      let path = try await cache.store(.generated, writes) { lines.append($0) }
      var firsts: [Double] = []
      var peaks: [Double] = []
      for _ in 0..<options.rounds {
        let r = try Self.child(["--store", path])
        firsts.append(r.firstMs)
        peaks.append(r.peakMB)
      }
      let first = Stats.median(firsts)
      let peak = peaks.max() ?? 0
      let firstOK = first <= target.firstMs
      let peakOK = peak <= target.peakMB
      lines.append(
        "  first frame 120×40: median \(Stats.fixed(first, 1)) ms of \(firsts.count) cold processes"
          + " (\(firsts.map { Stats.fixed($0, 0) }.joined(separator: ", ")));"
          + (target.firstMs.isFinite
            ? " target ≤ \(Stats.fixed(target.firstMs, 0)) ms: \(firstOK ? "met" : "MISSED")"
            : " no target at this size"))
      lines.append(
        "  peak memory (VmHWM): \(Stats.fixed(peak, 1)) MB, the highest of the rounds;"
          + (target.peakMB.isFinite
            ? " target ≤ \(Stats.fixed(target.peakMB, 0)) MB: \(peakOK ? "met" : "MISSED")" : " no target at this size")
      )
      // One verdict committed by another connection → the frame showing it, in a reader (as `watch`).
      let u = try Self.child(["--store", path, "--updates", "\(options.updates)"])
      let median = Stats.median(u.updatesMs)
      let p95 = Stats.percentile(u.updatesMs, 95)
      let updateOK = median <= Self.updateTargetMs
      lines.append(
        "  one verdict → frame (reader, another connection commits): median \(Stats.fixed(median, 1)) ms,"
          + " p95 \(Stats.fixed(p95, 1)) ms over \(u.updatesMs.count) verdicts; of which noticing the commit median"
          + " \(Stats.fixed(Stats.median(u.noticeMs), 1)) ms, reading and drawing median \(Stats.fixed(Stats.median(u.drawMs), 1)) ms;"
          + " target ≤ \(Stats.fixed(Self.updateTargetMs, 0)) ms: \(updateOK ? "met" : "MISSED")")
      let e = try Self.child(["--store", path, "--updates", "\(options.updates)", "--at-end"])
      let endMedian = Stats.median(e.updatesMs)
      let endOK = endMedian <= Self.updateTargetMs
      lines.append(
        "  the same, Answered scrolled to its end: median \(Stats.fixed(endMedian, 1)) ms, p95 \(Stats.fixed(Stats.percentile(e.updatesMs, 95), 1)) ms;"
          + " reading and drawing median \(Stats.fixed(Stats.median(e.drawMs), 1)) ms; target ≤ \(Stats.fixed(Self.updateTargetMs, 0)) ms:"
          + " \(endOK ? "met" : "MISSED")")
      met = met && firstOK && peakOK && updateOK && endOK
    }
    return BenchOutcome(lines: lines, metTargets: met)
  }

  /// What a child reported.
  struct ChildResult: Codable {
    var firstMs: Double
    var peakMB: Double
    var baseMB: Double
    var updatesMs: [Double]
    var noticeMs: [Double]
    var drawMs: [Double]
  }

  /// Runs `verdicts-bench panes-child ARGS` and reads its one JSON line.
  static func child(_ arguments: [String]) throws -> ChildResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: Self.selfPath)
    p.arguments = ["panes-child"] + arguments
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0, let line = String(data: data, encoding: .utf8)?.split(separator: "\n").last,
      let result = try? JSONDecoder().decode(ChildResult.self, from: Data(line.utf8))
    else {
      throw BenchFailure(
        message:
          "panes-child \(arguments.joined(separator: " ")) exited \(p.terminationStatus): \(String(decoding: data, as: UTF8.self))"
      )
    }
    return result
  }

  /// This executable's path.
  static var selfPath: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  }
}

/// The child: one cold open of a store to its first frame; then, asked, verdicts committed by
/// another connection and the frames that show them.
enum PanesChild {
  static let size = (width: 120, height: 40)

  static func main(_ arguments: [String]) async -> Int32 {
    var store: String?
    var updates = 0
    var atEnd = false
    var i = 0
    while i < arguments.count {
      switch arguments[i] {
      case "--store":
        i += 1
        store = i < arguments.count ? arguments[i] : nil
      case "--updates":
        i += 1
        updates = i < arguments.count ? Int(arguments[i]) ?? 0 : 0
      case "--at-end": atEnd = true
      default: break
      }
      i += 1
    }
    guard let store else {
      FileHandle.standardError.write(Data("panes-child: --store PATH\n".utf8))
      return 2
    }
    do {
      let result = try await run(store: store, updates: updates, atEnd: atEnd)
      let data = try JSONEncoder().encode(result)
      FileHandle.standardOutput.write(data + Data("\n".utf8))
      return 0
    } catch {
      FileHandle.standardError.write(Data("panes-child: \(error)\n".utf8))
      return 1
    }
  }

  static func run(store: String, updates: Int, atEnd: Bool) async throws -> PanesBenchmark.ChildResult {
    let base = Memory.highWaterMB()
    let clock = ContinuousClock()
    let start = clock.now
    // As the TUI starts: `verdicts` opens as the writer when the store is free, `watch` as a reader.
    let url = URL(fileURLWithPath: store)
    let copy =
      updates > 0
      ? try await WorkingCopy.openReader(store: url)
      : try await WorkingCopy.open(store: url, server: nil, create: false)
    defer { copy.close() }
    let changes = copy.changes()
    var screen = Screen(copy: copy)
    let grid = try await screen.first()
    let firstMs = Stats.seconds(clock.now - start) * 1000
    guard grid.text.contains("Waiting") else { throw BenchFailure(message: "the first frame shows no panes") }
    let peak = Memory.highWaterMB()
    guard updates > 0 else {
      return .init(firstMs: firstMs, peakMB: peak, baseMB: base, updatesMs: [], noticeMs: [], drawMs: [])
    }

    // Scrolled to the end of the Answered pane (where the newest answers are), each change
    // re-reads the page there: deep in the pane, not its first rows.
    if atEnd {
      _ = try await screen.keys([.char("2"), .end])
      guard screen.state.panes[QueuePane.answered.rawValue].top > 0 else {
        throw BenchFailure(message: "the Answered pane did not scroll to its end")
      }
    }

    // Another connection, as a draining writer would: it commits a verdict on the first waiting write.
    let writer = try RawConnection(path: store)
    // The kept store is put back as it was: the answered writes lose their verdicts again.
    var answered: [RawConnection.Waiting] = []
    defer { try? writer.restore(answered) }
    var iterator = changes.makeAsyncIterator()
    var updatesMs: [Double] = []
    var noticeMs: [Double] = []
    var drawMs: [Double] = []
    var rng = SplitMix(seed: 42)
    for _ in 0..<updates {
      // A random gap, so commits fall at every phase of the reader's polling.
      try await Task.sleep(nanoseconds: 150_000_000 + rng.next() % 250_000_000)
      guard let id = screen.state.panes[QueuePane.waiting.rawValue].writes.first?.id else {
        throw BenchFailure(message: "no waiting write left to answer")
      }
      answered.append(try writer.waiting(id: id))
      let before = screen.state.panes[QueuePane.waiting.rawValue].total
      let committed = clock.now
      try writer.commitAccepted(id: id)
      // The copy hears of it on its change stream (the reader's poll of data_version).
      while let change = await iterator.next() {
        if change.touchesQueue { break }
      }
      let noticed = clock.now
      let frame = try await screen.changed()
      let drawn = clock.now
      guard screen.state.panes[QueuePane.waiting.rawValue].total == before - 1,
        !screen.state.panes[QueuePane.waiting.rawValue].writes.contains(where: { $0.id == id }),
        frame.text.contains("Waiting")
      else { throw BenchFailure(message: "the frame after the verdict on \(id) does not show it") }
      updatesMs.append(Stats.seconds(drawn - committed) * 1000)
      noticeMs.append(Stats.seconds(noticed - committed) * 1000)
      drawMs.append(Stats.seconds(drawn - noticed) * 1000)
    }
    return .init(
      firstMs: firstMs, peakMB: max(peak, Memory.highWaterMB()), baseMB: base, updatesMs: updatesMs, noticeMs: noticeMs,
      drawMs: drawMs)
  }

  /// The TUI's path without a terminal: the state machine's effects run as `AppCore` runs
  /// them (each pane's page and the status read from the store), then `Renderer.render`.
  struct Screen {
    let copy: WorkingCopy
    var state: UIState

    init(copy: WorkingCopy) {
      self.copy = copy
      state = VerdictsApp.prepare(source: copy, options: AppOptions(environment: ["LANG": "C.UTF-8"])).state
    }

    mutating func first() async throws -> Grid {
      var effects = state.handle(.resize(width: PanesChild.size.width, height: PanesChild.size.height))
      effects += state.start()
      try await run(effects)
      return Renderer.render(state)
    }

    mutating func keys(_ keys: [Key]) async throws -> Grid {
      for k in keys { try await run(state.handle(.key(k))) }
      return Renderer.render(state)
    }

    mutating func changed() async throws -> Grid {
      try await run(state.handle(.changed))
      return Renderer.render(state)
    }

    mutating func run(_ effects: [UIEffect]) async throws {
      var queue = effects
      var loaded = Set<QueuePane>()
      while !queue.isEmpty {
        let e = queue.removeFirst()
        switch e {
        case .reload(let pane, let offset, let limit):
          // AppCore keeps one read per pane in flight and the last asked for after it.
          if loaded.contains(pane) { continue }
          loaded.insert(pane)
          let page = try await copy.page(pane, offset: offset, limit: limit, filter: state.filter)
          queue += state.handle(.loaded(page))
        case .loadStatus:
          queue += state.handle(.status(try await copy.status()))
        default:
          break
        }
      }
    }
  }
}

/// The process's memory high-water mark.
enum Memory {
  /// `VmHWM` from /proc/self/status, in MB (1 MB = 1,048,576 bytes).
  static func highWaterMB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let kb = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
      return kb / 1024
    }
    return 0
  }
}
