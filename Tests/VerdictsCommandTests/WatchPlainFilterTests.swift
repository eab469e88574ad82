import Foundation
import MarfaQueue
import TestSupport
import Testing

/// `watch --plain --filter` takes the TUI's filter: only the writes it matches get lines, those
/// listed first and those that change later, `body:` included; a filter it cannot read is
/// refused before anything is printed. Through the built binary.
@Suite(.serialized) struct WatchPlainFilterTests {
  static func writeLines(_ p: Spawned) -> [Substring] {
    p.stdout.split(separator: "\n").filter { $0.contains(" create_item ") }
  }

  @Test func onlyTheWritesTheFilterMatchesGetLinesListedOrChangedLater() async throws {
    let victim = try await DrainVictim(writes: 0)
    func queue(_ title: String) throws -> String {
      let r = try Binary.run(
        ["--json", "items", "create", "--type", "note", "--properties", "{\"title\":\"\(title)\"}"],
        store: victim.store, home: victim.folder.path, environment: victim.environment)
      return r.json?["id"]?.stringValue ?? ""
    }
    let wanted = try queue("w5000")
    _ = try queue("w4999")
    let watch = try Spawned(["watch", "--plain", "--filter", "body:w5000"], environment: victim.environment)
    defer { watch.kill() }
    #expect(waitUntil(within: .seconds(20)) { Self.writeLines(watch).count == 1 }, "\(watch.stdout)")
    let later = try queue("w5000 again")
    _ = try queue("w5001")
    // Seen queued before the drain: a write queued and answered between two of the watcher's
    // reads of the change log is listed once, as it is by then.
    #expect(waitUntil(within: .seconds(20)) { Self.writeLines(watch).count == 2 }, "\(watch.stdout)")
    let drained = try Binary.run(
      ["--json", "drain"], store: victim.store, home: victim.folder.path, environment: victim.environment)
    #expect(drained.code == 0, "\(drained)")
    // Each matching write: listed (or queued), then answered.
    #expect(waitUntil(within: .seconds(20)) { Self.writeLines(watch).count == 4 }, "\(watch.stdout)")
    usleep(1_500_000)
    let lines = Self.writeLines(watch)
    #expect(lines.count == 4, "\(lines)")
    #expect(lines.allSatisfy { $0.contains(wanted) || $0.contains(later) }, "\(lines)")
  }

  @Test func aFilterItCannotReadIsRefusedBeforeAnythingIsPrinted() async throws {
    let victim = try await DrainVictim(writes: 1)
    let r = try Binary.run(
      ["watch", "--plain", "--filter", "bdy:x"], store: victim.store, home: victim.folder.path, timeout: 10)
    #expect(r.code == 2, "\(r)")
    #expect(r.stdout.isEmpty, "\(r)")
    #expect(r.stderr.contains("unknown filter field 'bdy'") && r.stderr.contains("did you mean body?"), "\(r)")
    let screen = try Binary.run(
      ["watch", "--filter", "body:x"], store: victim.store, home: victim.folder.path, timeout: 10)
    #expect(screen.code == 2 && screen.stderr.contains("--filter needs --plain"), "\(screen)")
  }
}
