import Foundation
import MarfaQueue
import ScriptedInstance

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh scripted instance and a store holding `writes` queued creates for it: a fresh store
/// filled from the instance, or a copy of a kept store (a drained one: its report stays until the
/// next drain ends). The built `verdicts drain` then sends them.
struct DrainStage {
  let folder: String
  let store: String
  let instance: ScriptedInstance
  let server: Server
  let writes: Int

  static func make(in base: String, label: String, copying kept: String?, writes: Int) async throws -> DrainStage {
    let folder = base + "/\(label)-\(UUID().uuidString.lowercased().prefix(8))"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let store = folder + "/queue.store"
    let instance = ScriptedInstance(scenario: DrainBenchmark.scenario)
    let url = try instance.start()
    let server = Server(url: url.absoluteString, key: DrainBenchmark.key, timeout: DrainBenchmark.timeout)
    if let kept {
      try StoreCache.copy(kept, to: store)
    } else {
      let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: store), server: server)
      try await copy.fill()
      copy.close()
    }
    try await StoreCache.queueCreates(store: store, server: server, count: writes, label: label)
    return DrainStage(folder: folder, store: store, instance: instance, server: server, writes: writes)
  }

  /// Starts `verdicts drain` on the store (its output thrown away, its errors kept beside it),
  /// to the instance or to `url` (a proxy in front of it).
  func startDrain(url: String? = nil) throws -> SpawnedProcess {
    let null = open("/dev/null", O_RDWR)
    defer { close(null) }
    let err = open(folder + "/drain.stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    defer { close(err) }
    return try SpawnedProcess(
      try Binaries.verdicts(), ["drain", "--store", store, "--url", url ?? server.url],
      environment: Binaries.environment(home: folder), stdin: null, stdout: null, stderr: err)
  }

  /// Waits for a drain to end and fails unless it sent every queued write.
  func finished(_ drain: SpawnedProcess) throws -> PaneTitles {
    let code = drain.wait()
    let truth = try PaneTitles.truth(store: store)
    guard code == 0, truth.counts[0] == 0 else {
      let err = (try? String(contentsOfFile: folder + "/drain.stderr", encoding: .utf8)) ?? ""
      throw BenchFailure(message: "verdicts drain exited \(code) leaving \(truth): \(err.prefix(300))")
    }
    return truth
  }

  func tearDown() {
    instance.stop()
    try? FileManager.default.removeItem(atPath: folder)
  }
}
