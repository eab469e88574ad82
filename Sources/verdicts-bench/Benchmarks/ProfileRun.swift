import Foundation
import MarfaQueue
import ScriptedInstance

/// A hidden mode for an instruction profile (docs/performance.md, "Where a write's instructions
/// go"): `verdicts-bench profile-run N [queue|drain|baseline]` fills a fresh store from an
/// in-process instance and queues N creates; then `drain` (the default) drains them, `baseline`
/// sends their requests through the drain's client with no queue, as the drain benchmark's
/// baseline does, and `queue` stops. Run under callgrind at two sizes, the difference divided by
/// the difference in N is the cost of one write, start-up taken out; `drain` less `queue` is the
/// drain's, `baseline` less `queue` the bare client's.
///
/// A third argument, a whole number, stretches the queue's time-driven intervals by it
/// (`TimeScale`), as a run under callgrind needs to commit its groups as a drain at full speed does.
enum ProfileRun {
  static func main(_ arguments: [String]) async -> Int32 {
    let mode = arguments.count > 1 ? arguments[1] : "drain"
    let scale = arguments.count > 2 ? Int(arguments[2]) : 1
    guard let n = arguments.first.flatMap(Int.init), n > 0, ["queue", "drain", "baseline"].contains(mode),
      let scale, (1...1000).contains(scale), arguments.count <= 3
    else {
      FileHandle.standardError.write(Data("usage: verdicts-bench profile-run N [queue|drain|baseline [SCALE]]\n".utf8))
      return 2
    }
    TimeScale.factor.store(scale, ordering: .relaxed)
    let folder = FileManager.default.temporaryDirectory.path + "/verdicts-profile-\(getpid())"
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let instance = ScriptedInstance(scenario: DrainBenchmark.scenario)
      let url = try instance.start()
      defer { instance.stop() }
      let copy = try await WorkingCopy.open(
        store: URL(fileURLWithPath: folder + "/queue.store"),
        server: Server(url: url.absoluteString, key: DrainBenchmark.key, timeout: DrainBenchmark.timeout))
      defer { copy.close() }
      try await copy.fill()
      for i in 0..<n {
        _ = try await copy.createItem(
          type: "note", properties: .object([("title", .string("write \(i)")), ("n", .int(i))]))
      }
      switch mode {
      case "queue":
        return 0
      case "baseline":
        let wires = try await copy.queue.all().map {
          DrainBenchmark.Wire(body: Array($0.body.text.utf8), key: $0.idempotencyKey)
        }
        _ = try await DrainBenchmark().runBaseline(wires)
        return 0
      default:
        break
      }
      let report = try await copy.queue.drain()
      guard report.answered == n else {
        FileHandle.standardError.write(Data("profile-run: answered \(report.answered) of \(n)\n".utf8))
        return 1
      }
      return 0
    } catch {
      FileHandle.standardError.write(Data("profile-run: \(error)\n".utf8))
      return 1
    }
  }
}
