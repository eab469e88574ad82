import Foundation

/// The built `verdicts drain` as a device runs it (docs/performance.md, "What the store's
/// statements alone cost"): each round a fresh store of N creates queued through the library, a
/// fresh instance, and the binary draining the store in a process of its own; the drain process's
/// CPU a write (user + system, every thread, from its `rusage` when it exits), medians over the
/// rounds. The instance is the bench's, in another process, so it is not counted.
///
/// A figure tracked beside the drain row, not a target: the row's CPU ratio counts the instance on
/// both sides and moves the wrong way when shared code gets cheaper; this is what a device pays.
struct UserEndDrain {
  /// The figures, one a line.
  let rows: [String]

  static func measure(writes n: Int, rounds: Int, folder: String) async throws -> UserEndDrain {
    var cpu: [Double] = []
    var system: [Double] = []
    var seconds: [Double] = []
    for r in 0..<rounds {
      let stage = try await DrainStage.make(in: folder, label: "user-end-\(r)", copying: nil, writes: n)
      defer { stage.tearDown() }
      let drain = try stage.startDrain()
      _ = try stage.finished(drain)
      cpu.append(drain.cpuSeconds / Double(n))
      system.append(drain.systemSeconds / Double(n))
      seconds.append(drain.seconds)
    }
    func micros(_ v: [Double]) -> String { Stats.whole(Stats.median(v) * 1e6) }
    return UserEndDrain(rows: [
      "the built verdicts drain at the user's end (its own process from its start; the instance another): CPU per write median"
        + " \(micros(cpu)) µs (\(micros(system)) µs of it system; rounds"
        + " \(cpu.map { Stats.whole($0 * 1e6) }.joined(separator: ", "))), the drain"
        + " \(Stats.fixed(Stats.median(seconds), 2)) s; tracked, not a target"
    ])
  }
}
