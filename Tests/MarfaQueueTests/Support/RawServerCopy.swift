import Foundation
import ScriptedInstance
import TestSupport

@testable import MarfaQueue

/// A working copy filled from a scripted instance, with writes queued, then opened again against
/// a ``RawServer`` whose connections the test handles by hand.
final class RawServerCopy {
  private let temp = TempFolder()
  var folder: String { temp.path }
  let server: RawServer
  var copy: WorkingCopy!
  /// The writes as queued, in order.
  private(set) var queued: [QueuedWrite] = []

  /// The root answer's body (the instance the copy was filled from).
  static let root = #"{"instance_id":"\#(Scenario.defaultInstanceId)","name":"raw","contract":2}"#
  /// The contract header every Marfa answer carries.
  static let contract = "X-Marfa-Contract: 2"

  /// - Parameters:
  ///   - writes: creates queued before the copy meets the raw server (`w0`, `w1`, …).
  ///   - title: each create's title (large ones make bodies sent in several pieces).
  init(
    writes: Int = 1, title: String = "a", timeout: Double, handler: @escaping @Sendable (RawPeer) -> Void
  ) async throws {
    let store = temp.storeURL
    let instance = ScriptedInstance(scenario: Scenario(name: "raw", types: [ItemType("note")]))
    let url = try instance.start()
    let first = try await WorkingCopy.open(
      store: store, server: Server(url: url.absoluteString, key: "k1", timeout: timeout))
    try await first.fill()
    for i in 0..<writes {
      _ = try await first.createItem(type: "note", properties: .object([("title", .string(title))]), id: "w\(i)")
    }
    queued = try await first.queue.all()
    first.close()
    instance.stop()
    server = try RawServer(handler: handler)
    copy = try await WorkingCopy.open(
      store: store, server: Server(url: server.url.absoluteString, key: "k1", timeout: timeout))
  }

  deinit {
    copy?.close()
    server.stop()
  }

  /// The write as the store holds it now.
  func write(_ id: String) async throws -> QueuedWrite { try await copy.queue.write(id) }

  /// The write requests the server received.
  var posts: [RawRequestRecord] { server.received.filter { $0.method == "POST" } }

  /// Answers `GET /` as the instance the copy was filled from; false for any other request.
  static func answersRoot(_ peer: RawPeer, _ head: RawPeer.Head) -> Bool {
    guard head.method == "GET", head.path == "/" else { return false }
    peer.answer(200, headers: [contract, "Content-Type: application/json"], body: root)
    return true
  }

  /// A create's answer: 201 with the item.
  static func created(_ id: String) -> String {
    #"{"item":{"id":"\#(id)","type":"note","version":1,"state":"active","properties":{}}}"#
  }
}
