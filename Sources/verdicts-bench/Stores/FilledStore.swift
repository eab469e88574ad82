import Foundation
import MarfaQueue
import ScriptedInstance

/// A scripted instance and a store filled from it, in a folder of its own: the stage the
/// `bytes` and `watch` sections start from.
struct FilledStore {
  let folder: String
  let store: String
  let instance: ScriptedInstance
  let server: Server

  /// Starts the drain benchmark's instance and fills a fresh store from it in `options.folder`.
  static func make(_ options: BenchOptions, label: String) async throws -> FilledStore {
    let base = options.folder ?? FileManager.default.temporaryDirectory.path
    let folder = base + "/verdicts-bench-\(label)-\(UUID().uuidString.lowercased())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let store = folder + "/queue.store"
    let instance = ScriptedInstance(scenario: DrainBenchmark.scenario)
    let url = try instance.start()
    let server = Server(url: url.absoluteString, key: DrainBenchmark.key, timeout: DrainBenchmark.timeout)
    let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: store), server: server)
    try await copy.fill()
    copy.close()
    return FilledStore(folder: folder, store: store, instance: instance, server: server)
  }

  /// Stops the instance and removes the folder.
  func tearDown() {
    instance.stop()
    try? FileManager.default.removeItem(atPath: folder)
  }
}
