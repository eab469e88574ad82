import Foundation
import MarfaQueue
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `verdicts watch --plain --from now|ID`: starting without listing the queue, or after a write.
@Suite(.serialized) struct WatchPlainFromTests {
  /// Queues a note creating this item; returns the write's id.
  @discardableResult
  static func queue(_ item: String, _ t: TempFolder) throws -> String {
    let r = try Binary.run(
      ["items", "create", "--type", "note", "--id", item, "--properties", "{}", "--json"], store: t.store, home: t.path)
    #expect(r.code == 0, "\(r)")
    return r.json?["id"]?.stringValue ?? ""
  }

  /// The items of the write lines printed so far, in order (the header left out).
  static func ids(_ watch: Spawned) -> [String] {
    watch.stdout.split(separator: "\n").dropFirst().compactMap { line in
      line.split(separator: " ").first { $0.hasPrefix("item-") }.map(String.init)
    }
  }

  /// Watches until `done` holds of the printed ids (or 10 s), then stops it with SIGINT.
  static func watch(_ arguments: [String], _ t: TempFolder, then act: () throws -> Void, until done: ([String]) -> Bool)
    throws -> (ids: [String], code: Int32)
  {
    let watch = try Spawned(
      ["watch", "--plain"] + arguments, environment: Binary.environment(store: t.store, home: t.path, [:]))
    defer { watch.kill() }
    #expect(watch.waitForLine(timeout: 10))
    // The first listing (if any) is printed before the header's reader follows changes (a fixed
    // pause: the process does not say when it follows them).
    usleep(500_000)
    try act()
    waitUntil(within: .seconds(10)) { done(ids(watch)) }
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait(timeout: 10))
    return (ids(watch), watch.process.terminationStatus)
  }

  @Test func fromNowListsNoWriteAlreadyQueuedOnlyTheWritesQueuedAfter() throws {
    let t = TempFolder()
    for id in ["item-old1", "item-old2"] { try Self.queue(id, t) }
    let seen = try Self.watch(
      ["--from", "now"], t, then: { try Self.queue("item-new1", t) }, until: { $0.contains("item-new1") })
    #expect(seen.ids == ["item-new1"], "\(seen.ids)")
    #expect(seen.code == 0)
  }

  @Test func fromAnIDListsOnlyTheWritesQueuedAfterItThenWhatChanges() throws {
    let t = TempFolder()
    let first = try Self.queue("item-a", t)
    for id in ["item-b", "item-c"] { try Self.queue(id, t) }
    let seen = try Self.watch(
      ["--from", first], t, then: { try Self.queue("item-d", t) }, until: { $0.contains("item-d") })
    #expect(seen.ids == ["item-b", "item-c", "item-d"], "\(seen.ids)")
    #expect(seen.code == 0)
  }

  @Test func aFromThatNamesNoWriteOrNothingExitsTwoSayingWhatItTakes() throws {
    let t = TempFolder()
    try Self.queue("item-a", t)
    let unknown = try Binary.run(["watch", "--plain", "--from", "no-such-write"], store: t.store, home: t.path)
    #expect(unknown.code == 2, "\(unknown)")
    #expect(unknown.stderr.contains("--from takes now or a write's id"), "\(unknown)")
    let empty = try Binary.run(["watch", "--plain", "--from", ""], store: t.store, home: t.path)
    #expect(empty.code == 2, "\(empty)")
    #expect(empty.stderr.contains("--from"), "\(empty)")
    let missing = try Binary.run(["watch", "--plain", "--from"], store: t.store, home: t.path)
    #expect(missing.code == 2, "\(missing)")
    let withoutPlain = try Binary.run(["watch", "--from", "now"], store: t.store, home: t.path)
    #expect(withoutPlain.code == 2, "\(withoutPlain)")
    #expect(withoutPlain.stderr.contains("--from needs --plain"), "\(withoutPlain)")
  }
}
