import FoundationEssentials
import MarfaQueue
import ScriptedInstance

/// The demo: the scripted instance's `tour` on loopback, a fresh store in a temporary folder,
/// and a few drains that bring every verdict and every blocked reason on screen.
final class DemoDriver: Sendable {
  let instance: ScriptedInstance
  let folder: URL
  let copy: WorkingCopy
  let url: URL
  /// The key the tour starts with, and the one that works for every write.
  static let firstKey = "tour-key-1"
  static let secondKey = "tour-key-2"

  /// The demo's guide, a step at a time on its screen (`n` next, `esc` closes it): what each
  /// pane is, how to read a blocked write, and the keys that clear the tour's.
  static let guide = [
    "A scripted Marfa instance runs on this machine; this fresh store's drains just ran."
      + " Four panes: Waiting, Answered, Blocked, Dead.",
    "Blocked holds writes that wait for you. j and k move; the detail below says why each is"
      + " blocked, what it met, and what clears it.",
    "tour-grant was refused by the first instance (a 403); then another instance took this"
      + " address, so it is blocked instance_changed.",
    "r sends a blocked write again, to the instance there now; w withdraws it; x discards a"
      + " refused one; u right after undoes.",
    "The last drain stopped at a refused key (the status line says so): press K, give"
      + " \(secondKey), then d drains again.",
    "R releases every write blocked for one reason. H lists the drains, / filters, ? lists every"
      + " key. esc closes this guide.",
  ]

  private init(instance: ScriptedInstance, folder: URL, copy: WorkingCopy, url: URL) {
    self.instance = instance
    self.folder = folder
    self.copy = copy
    self.url = url
  }

  /// Starts the instance and opens a fresh store; nothing is queued yet.
  static func start(storePath: String?) async throws -> DemoDriver {
    let instance = ScriptedInstance(scenario: .tour)
    let url = try instance.start()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "verdicts-demo-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let store = storePath.map { URL(fileURLWithPath: $0) } ?? folder.appendingPathComponent("demo.store")
    let copy = try await WorkingCopy.open(
      store: store, server: Server(url: url.absoluteString, key: Scenario.tour.startKey ?? firstKey, timeout: 5))
    await copy.describeWriter(program: "verdicts", mode: "demo")
    return DemoDriver(instance: instance, folder: folder, copy: copy, url: url)
  }

  /// Fills, queues the tour's writes and walks its drains (docs/tui.md: within ten seconds every
  /// pane has writes and every blocked reason is on screen). `say` hears each step in words.
  func walkTour(pause: Double = 0.4, plain: Bool = false, say: @Sendable (String) -> Void) async {
    do {
      try await copy.fill()
      say("filled from the tour instance at \(url.absoluteString)")
      for w in Scenario.tour.writes { _ = try await w.queue(on: copy) }
      say("queued \(Scenario.tour.writes.count) writes")
      for _ in 0..<5 {
        try await Task.sleep(nanoseconds: UInt64(pause * 1e9))
        _ = try? await copy.queue.drain()
      }
      // A write queued against this instance, then another instance at the same address.
      _ = try await Scenario.tourMovedWrite.queue(on: copy)
      instance.switchInstance(to: "99999999-0000-7000-8000-000000000000", keepData: true)
      say("the instance at \(url.absoluteString) is now another instance")
      do {
        _ = try await copy.queue.drain()
      } catch QueueError.copyExpired {
        say("the copy expired (instance_changed); filling again")
      }
      try await copy.fill()
      try await Task.sleep(nanoseconds: UInt64(pause * 1e9))
      _ = try? await copy.queue.drain()
      // A write the first key may not make: the queue is parked until the second key.
      _ = try await Scenario.tourKeyedWrite.queue(on: copy)
      _ = try? await copy.queue.drain()
      // A line mode has no screen and no K: it says what is left and where it can be done.
      say(
        plain
          ? "the tour is done: one write is parked until another key (run `verdicts demo` in a terminal and press K)"
          : "the tour is on screen: press K and give \(Self.secondKey) to send the parked write")
    } catch {
      say("the tour stopped: \(error)")
    }
  }

  /// Stops the instance and removes the temporary folder.
  func stop() {
    copy.close()
    instance.stop()
    try? FileManager.default.removeItem(at: folder)
  }
}
