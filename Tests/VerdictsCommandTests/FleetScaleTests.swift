import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Fifty devices in `verdicts fleet`, each its own ssh connection to the lab's sshd (fifty host
/// aliases, one store): what the local process costs while nothing happens (docs/fleet.md,
/// "What it costs").
@Suite(.serialized) struct FleetScaleTests {
  /// utime + stime of `pid` so far, in clock ticks (/proc/PID/stat).
  static func ticks(_ pid: Int32) -> Int {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return 0 }
    let rest = stat[stat.index(after: close)...].split(separator: " ")
    return (Int(rest[11]) ?? 0) + (Int(rest[12]) ?? 0)
  }

  /// The resident set of `pid` in kB (VmRSS of /proc/PID/status).
  static func residentKB(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }

  /// The children of `pid` (the ssh clients).
  static func children(_ pid: Int32) -> [Int32] {
    let out = (try? ChildProcess.run("/usr/bin/pgrep", ["-P", "\(pid)"]))?.output ?? ""
    return out.split(separator: "\n").compactMap { Int32($0) }
  }

  @Test func fiftyIdleDevicesCostUnderOnePercentOfACoreAndUnderOneHundredMegabytes() throws {
    let hosts = (1...50).map { $0 < 10 ? "dev0\($0)" : "dev\($0)" }
    let lab = try SSHLab(hosts: hosts)
    let folder = TempFolder()
    let made = try Binary.run(
      ["items", "create", "--type", "note", "--properties", "{}"], store: folder.store, home: folder.path)
    #expect(made.code == 0, "\(made)")
    let env = Binary.environment(
      store: nil, home: folder.path, lab.environment(remoteBinary: try Binary.require()))
    let fleet = try Spawned(["fleet", "--plain"] + hosts.map { "\($0):\(folder.store)" }, environment: env)
    defer { fleet.kill() }
    // Every device reached (sshd takes ten unauthenticated connections at a time by default:
    // the others are tried again with backoff).
    #expect(
      waitUntil(within: .seconds(180), every: .milliseconds(500)) {
        FleetBinaryTests.lastLines(fleet.stdout).values.filter { $0.contains(": waiting · reachable") }.count == 50
      }, "\(fleet.stdout)\(fleet.stderr)")
    Thread.sleep(forTimeInterval: 5)
    let pid = fleet.process.processIdentifier
    let ssh = Self.children(pid)
    let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
    let before = Self.ticks(pid)
    let sshBefore = ssh.map(Self.ticks).reduce(0, +)
    let started = ContinuousClock.now
    Thread.sleep(forTimeInterval: 10)
    let elapsed = (ContinuousClock.now - started) / .seconds(1)
    let cpu = Double(Self.ticks(pid) - before) / hz / elapsed
    let sshCPU = Double(ssh.map(Self.ticks).reduce(0, +) - sshBefore) / hz / elapsed
    let rss = Self.residentKB(pid)
    let sshRSS = ssh.map(Self.residentKB).reduce(0, +)
    let figures =
      "fleet of 50, idle 10 s: verdicts \(String(format: "%.2f", cpu * 100)) % of a core, RSS \(rss / 1024) MB; "
      + "its \(ssh.count) ssh clients together \(String(format: "%.2f", sshCPU * 100)) % of a core, RSS \(sshRSS / 1024) MB"
    print(figures)
    try? figures.write(toFile: "/tmp/verdicts-fleet-figures.txt", atomically: true, encoding: .utf8)
    #expect(cpu < 0.01 * Double(SanitizerRun.boundScale), "\(figures)")
    #expect(rss < 100 * 1024, "\(figures)")
  }
}
