import Foundation
import MarfaQueue
import ScriptedInstance

#if canImport(Glibc)
  import Glibc
#endif

/// The stores the pty sections read, made once and kept under `--dir` (`verdicts-bench-stores/`):
///
/// - **generated**: `StoreGenerator` (mixed verdicts in every pane, no drain report);
/// - **drained**: `n` creates queued through the library and drained by the built `verdicts drain`
///   to the in-process scripted instance, so the store holds that drain's report. Above
///   `fullDrainLimit` writes, the first `n - drainTail` writes are generated (answered, blocked and
///   dead; nothing a drain would send) and only the last `drainTail` are queued and drained for
///   real: a full 5M drain runs for hours at 1–3k writes/s.
///
/// A store is reused when its stamp file is there (`--rebuild` makes it again); the stamp of a
/// drained store keeps what its drain measured (time, peak RSS, the report's first lines).
struct StoreCache {
  enum Shape: String, CaseIterable {
    case generated, drained
  }

  /// What building a drained store measured.
  struct DrainRecord: Codable {
    var date: String
    var binary: String
    var writes: Int
    var generated: Int
    var drained: Int
    var queueSeconds: Double
    var drainSeconds: Double
    var drainPeakMB: Double
    var exitCode: Int32
    var report: String
  }

  let folder: String
  let options: BenchOptions

  init(_ options: BenchOptions) throws {
    self.options = options
    folder = (options.folder ?? FileManager.default.temporaryDirectory.path) + "/verdicts-bench-stores"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  func path(_ shape: Shape, _ writes: Int) -> String { folder + "/\(shape.rawValue)-\(writes).store" }
  func stamp(_ shape: Shape, _ writes: Int) -> String { path(shape, writes) + ".\(shape.rawValue).json" }

  /// How many writes of a drained store of `writes` are queued and drained for real.
  func drainedPart(_ writes: Int) -> Int { writes > options.fullDrainLimit ? min(writes, options.drainTail) : writes }

  /// The drain record of a drained store made earlier.
  func record(_ writes: Int) -> DrainRecord? {
    guard let data = FileManager.default.contents(atPath: stamp(.drained, writes)) else { return nil }
    return try? JSONDecoder().decode(DrainRecord.self, from: data)
  }

  /// The store of this shape and size, made when missing; `say` hears what was done.
  func store(_ shape: Shape, _ writes: Int, say: (String) -> Void) async throws -> String {
    let p = path(shape, writes)
    // A drained store made with another split (generated + drained) than asked is made again.
    if shape == .drained, let r = record(writes), r.drained != drainedPart(writes), !options.rebuild {
      say(
        "drained \(Stats.whole(Double(writes))): the kept store drained \(Stats.whole(Double(r.drained))) writes,"
          + " not \(Stats.whole(Double(drainedPart(writes)))): made again")
      try? FileManager.default.removeItem(atPath: stamp(shape, writes))
    }
    if FileManager.default.fileExists(atPath: stamp(shape, writes)) && !options.rebuild {
      say(
        "\(shape.rawValue) \(Stats.whole(Double(writes))): reusing \(p) (made by an earlier run; --rebuild makes it again)"
      )
      return p
    }
    Self.remove(p)
    try? FileManager.default.removeItem(atPath: stamp(shape, writes))
    let clock = ContinuousClock()
    let start = clock.now
    switch shape {
    case .generated:
      let made = try await StoreGenerator(writes: writes).generate(at: p)
      _ = FileManager.default.createFile(atPath: stamp(shape, writes), contents: Data("{}".utf8))
      say(
        "generated \(Stats.whole(Double(writes))): made in \(Stats.fixed(Stats.seconds(clock.now - start), 1)) s"
          + " (waiting \(made.waiting), answered \(made.answered), blocked \(made.blocked), dead \(made.dead);"
          + " \(Stats.whole(Double(Self.size(p)) / 1_048_576)) MB)")
    case .drained:
      let record = try await makeDrained(p, writes: writes, say: say)
      let data = try JSONEncoder().encode(record)
      _ = FileManager.default.createFile(atPath: stamp(shape, writes), contents: data)
    }
    return p
  }

  /// Fills a store from a fresh instance, generates the part not drained, queues the rest and
  /// runs the built `verdicts drain` on it.
  func makeDrained(_ p: String, writes: Int, say: (String) -> Void) async throws -> DrainRecord {
    let real = drainedPart(writes)
    let generated = writes - real
    let instance = ScriptedInstance(scenario: DrainBenchmark.scenario)
    let url = try instance.start()
    defer { instance.stop() }
    let server = Server(url: url.absoluteString, key: DrainBenchmark.key, timeout: DrainBenchmark.timeout)
    do {
      let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: p), server: server)
      try await copy.fill()
      copy.close()
    }
    if generated > 0 {
      var generator = StoreGenerator(writes: generated, mix: .init(waiting: false, credentialRefused: false))
      generator.instanceId = instance.instanceId
      generator.writeMeta = false
      _ = try await generator.generate(at: p)
    }
    let clock = ContinuousClock()
    let queueStart = clock.now
    try await Self.queueCreates(store: p, server: server, count: real, label: "drained")
    let queueSeconds = Stats.seconds(clock.now - queueStart)
    say(
      "drained \(Stats.whole(Double(writes))): \(generated > 0 ? "\(Stats.whole(Double(generated))) generated, then " : "")"
        + "\(Stats.whole(Double(real))) creates queued in \(Stats.fixed(queueSeconds, 1)) s; draining them with `verdicts drain`…"
    )
    let report = p + ".report.txt"
    let drain = try SpawnedProcess.run(
      try Binaries.verdicts(), ["drain", "--store", p, "--url", server.url],
      environment: Binaries.environment(home: folder),
      stdout: report, stderr: p + ".stderr.txt")
    let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
    let truth = try PaneTitles.truth(store: p)
    guard drain.wait() == 0, truth.counts[0] == 0 else {
      throw BenchFailure(
        message: "verdicts drain on \(p) exited \(drain.wait()) leaving \(truth); \(text.prefix(400))")
    }
    let record = DrainRecord(
      date: Machine.current().date, binary: Binaries.stamp(), writes: writes, generated: generated, drained: real,
      queueSeconds: queueSeconds, drainSeconds: drain.seconds, drainPeakMB: drain.peakMB, exitCode: drain.wait(),
      report: text.split(separator: "\n").prefix(6).joined(separator: "\n"))
    say(
      "  drained \(Stats.whole(Double(real))) in \(Stats.fixed(drain.seconds, 1)) s (\(Stats.whole(Double(real) / drain.seconds)) writes/s),"
        + " `verdicts drain` peak RSS \(Stats.fixed(drain.peakMB, 1)) MB; \(truth)")
    return record
  }

  /// Queues `count` item creates into the store through the library (this process the writer for a while).
  static func queueCreates(store: String, server: Server, count: Int, label: String) async throws {
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: store), server: server)
    defer { copy.close() }
    for i in 0..<count {
      _ = try await copy.createItem(
        type: "note", properties: .object([("title", .string("\(label) write \(i)")), ("n", .int(i))]))
    }
  }

  /// Copies a store (and its -wal) to `to`, replacing what was there.
  static func copy(_ from: String, to: String) throws {
    remove(to)
    try FileManager.default.copyItem(atPath: from, toPath: to)
    if FileManager.default.fileExists(atPath: from + "-wal") {
      try FileManager.default.copyItem(atPath: from + "-wal", toPath: to + "-wal")
    }
  }

  /// Removes a store and the files beside it.
  static func remove(_ p: String) {
    for suffix in ["", "-wal", "-shm", ".lock", ".writer-lock", ".report.txt", ".stderr.txt"] {
      try? FileManager.default.removeItem(atPath: p + suffix)
    }
  }

  static func size(_ p: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int) ?? 0 }

  /// Evicts the store's files from the page cache (`posix_fadvise` DONTNEED after `fdatasync`):
  /// the next open reads them from the disk.
  static func evict(_ p: String) {
    for suffix in ["", "-wal", "-shm"] {
      let fd = open(p + suffix, O_RDONLY)
      guard fd >= 0 else { continue }
      fdatasync(fd)
      _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
      close(fd)
    }
  }
}
