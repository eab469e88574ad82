import Foundation
import ScriptedInstance

@testable import MarfaQueue

/// A scripted instance on loopback and a filled working copy that drains to it.
final class DrainHarness {
  let instance: ScriptedInstance
  let store = TestStore()
  var copy: WorkingCopy!
  let url: URL

  init(
    types: [ItemType] = [ItemType("note", mergePolicy: ["body": .keepBothCopies])], items: [SeedItem] = [],
    rules: [ScriptRule] = [], key: String = "k1", timeout: Double = 2, fill: Bool = true
  ) async throws {
    instance = ScriptedInstance(scenario: Scenario(name: "test", types: types, items: items, rules: rules))
    url = try instance.start()
    copy = try await WorkingCopy.open(
      store: store.url, server: Server(url: url.absoluteString, key: key, timeout: timeout))
    if fill { try await copy.fill() }
  }

  deinit {
    copy?.close()
    instance.stop()
  }

  /// Requests the instance got at this endpoint (method, path prefix), script and model alike.
  func requests(_ method: String, _ path: String) -> [RecordedRequest] {
    instance.requests.filter { $0.method == method && $0.path.hasPrefix(path) }
  }

  func note(_ title: String = "a", id: String? = nil) async throws -> QueuedWrite {
    try await copy.createItem(type: "note", properties: .object([("title", .string(title))]), id: id)
  }

  func write(_ id: String) async throws -> QueuedWrite { try await copy.queue.write(id) }
}
