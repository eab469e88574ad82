import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Through the built binary: an idle watcher stays idle while another file in the store's folder
/// is appended to thousands of times (docs/reliability.md, "Third attack round (B)").
@Suite(.serialized) struct WatcherNeighbourBinaryTests {
  /// The CPU time `pid` used so far, in clock ticks (utime + stime of /proc/PID/stat).
  static func ticks(_ pid: Int32) throws -> Int {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    // Past the command's name (in parentheses, which may hold spaces): fields 3 onwards.
    let rest = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
    return try #require(Int(rest[11])) + #require(Int(rest[12]))
  }

  @Test func anIdleWatcherStaysIdleWhileANeighbourFileIsAppendedTo() throws {
    let t = TempFolder()
    let r = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    #expect(r.code == 0, "\(r)")
    let watch = try Spawned(["watch", "--plain"], environment: Binary.environment(store: t.store, home: t.path, [:]))
    defer { watch.kill() }
    #expect(waitUntil(within: .seconds(20)) { watch.stdout.contains("queued") }, "\(watch.stdout)")
    let pid = watch.process.processIdentifier
    let before = try Self.ticks(pid)
    let started = ContinuousClock.now
    let fd = open(t.path + "/neighbour.log", O_WRONLY | O_APPEND | O_CREAT, 0o600)
    var line: [UInt8] = Array("a line of a busy log\n".utf8)
    for _ in 0..<8_000 {
      _ = write(fd, &line, line.count)
      usleep(250)
    }
    close(fd)
    let spent = Double(try Self.ticks(pid) - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
    let elapsed = (ContinuousClock.now - started) / .seconds(1)
    // Before, one lock probe and one fstat an event: 17 to 27 % of a core. The bound leaves room
    // for a loaded machine's tick rounding (a tick is 10 ms).
    #expect(spent / elapsed < 0.03 * Double(SanitizerRun.boundScale), "\(spent) s of CPU in \(elapsed) s")
  }
}
