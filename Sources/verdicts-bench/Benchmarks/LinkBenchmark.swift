import Foundation

/// `verdicts watch` on a 120×40 pty follows a `verdicts drain` of `--writes`
/// creates (a fresh store, a fresh instance for each run). Bytes a second the watcher sends while
/// the drain runs, read straight off the pty; then the SSH model: the pty read behind a 2 MiB
/// buffer that a link empties at 10 KB/s and at 2.5 KB/s (``SSHLink``; 1 KB = 1,024 B). The lag
/// is from the drain's end (`verdicts drain` exits) until the last byte of the first frame
/// showing the final counts reaches the far end of the link.
struct LinkBenchmark: Benchmark {
  let name = "link"
  let summary =
    "bytes a second while a drain runs at 120×40 (≤ 2 KB/s); SSH model 2 MiB buffer at 10 and 2.5 KB/s: lag at the drain's end (≤ 2 s)"
  static let bytesTarget = 2048.0
  static let lagTarget = 2.0

  func run(_ options: BenchOptions) async throws -> BenchOutcome {
    let cache = try StoreCache(options)
    var rows: [Row] = []
    let links: [(String, SSHLink?)] = [
      ("the pty read at once", nil), ("10 KB/s", SSHLink(rate: 10 * 1024)), ("2.5 KB/s", SSHLink(rate: 2.5 * 1024)),
    ]
    for (label, link) in links {
      let stage = try await DrainStage.make(in: cache.folder, label: "link", copying: nil, writes: options.writes)
      defer { stage.tearDown() }
      let session = try TUISession(store: stage.store, home: stage.folder, link: link)
      defer { session.pty.finish() }
      try await session.ready(try PaneTitles.truth(store: stage.store), what: "link")
      let drain = try stage.startDrain()
      let final = try stage.finished(drain)
      let end = drain.ended!.at
      let seconds = drain.seconds
      let sent = session.pty.bytes(from: drain.started, to: end)
      guard let frame = await session.follower.waitFor(final, limit: .seconds(120)) else {
        throw BenchFailure(message: "link \(label): the screen never showed \(final)")
      }
      let lag = max(0, Stats.seconds(frame.last.delivered - end))
      let rate = Double(sent) / seconds
      if link == nil {
        rows.append(
          Row(
            name: "bytes a second while a drain runs, 120×40",
            figure:
              "\(Stats.whole(rate)) B/s (\(Stats.whole(Double(sent))) B over a \(Stats.fixed(seconds, 1)) s drain of"
              + " \(Stats.whole(Double(options.writes))) writes); the screen showed the end \(Stats.fixed(lag * 1000, 0)) ms after it",
            target: "≤ 2 KB/s", met: rate <= Self.bytesTarget))
      } else {
        rows.append(
          Row(
            name: "SSH model, 2 MiB buffer, \(label): the screen's lag at the drain's end",
            figure:
              "\(Stats.fixed(lag, 1)) s (\(Stats.whole(rate)) B/s sent during a \(Stats.fixed(seconds, 1)) s drain)",
            target: "≤ 2 s", met: lag <= Self.lagTarget))
      }
    }
    return Row.outcome(
      rows, notes: ["a drain of \(Stats.whole(Double(options.writes))) creates to the in-process instance per run"])
  }
}
