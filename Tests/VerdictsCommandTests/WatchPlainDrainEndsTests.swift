import Foundation
import MarfaQueue
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `watch --plain` says every drain's end, however it ends: one interrupted by Ctrl-C, one that
/// failed (the instance switched under it), and each of several drains ending within a second,
/// one line a drain. Through the built binary.
@Suite(.serialized) struct WatchPlainDrainEndsTests {
  static func endLines(_ p: Spawned) -> [Substring] {
    p.stdout.split(separator: "\n").filter { $0.contains(" drain ended ") }
  }

  @Test func everyDrainGetsAnEndLineIncludingOneInterruptedOneThatFailedAndDrainsEndingTogether() async throws {
    let victim = try await DrainVictim(writes: 40)
    victim.instance.writeDelay = 0.05
    let watch = try Spawned(["watch", "--plain"], environment: victim.environment)
    defer { watch.kill() }
    #expect(waitUntil(within: .seconds(30)) { watch.stdout.contains("writer") || watch.stdout.count > 0 })
    usleep(1_200_000)

    let interrupted = try victim.spawnDrain()
    victim.waitForPosts(5, while: interrupted)
    kill(interrupted.process.processIdentifier, SIGINT)
    #expect(interrupted.wait(timeout: 30))
    #expect(waitUntil(within: .seconds(10)) { Self.endLines(watch).count == 1 }, "\(watch.stdout.suffix(2000))")
    #expect(Self.endLines(watch).first?.contains("; interrupted: stopped by SIGINT (Ctrl-C)") == true)

    // Three drains back to back, each with a write to send, end within the same second or two.
    victim.instance.writeDelay = 0
    for _ in 0..<3 {
      let one = try Binary.run(
        ["--json", "drain"], store: victim.store, home: victim.folder.path, environment: victim.environment)
      #expect(one.code == 0, "\(one)")
      _ = try Binary.run(
        ["items", "create", "--type", "note", "--properties", "{}"], store: victim.store, home: victim.folder.path,
        environment: victim.environment)
    }
    #expect(waitUntil(within: .seconds(10)) { Self.endLines(watch).count == 4 }, "\(Self.endLines(watch))")

    victim.instance.switchInstance(to: "22222222-0000-7000-8000-000000000000", keepData: true)
    let failed = try Binary.run(
      ["--json", "drain"], store: victim.store, home: victim.folder.path, environment: victim.environment)
    #expect(failed.code != 0, "\(failed)")
    #expect(waitUntil(within: .seconds(10)) { Self.endLines(watch).count == 5 }, "\(Self.endLines(watch))")
    let last = Self.endLines(watch).last ?? ""
    #expect(last.contains("; failed: ") && last.contains("instance"), "\(last)")
  }
}
