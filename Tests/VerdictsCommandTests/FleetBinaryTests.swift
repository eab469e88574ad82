import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Through the built binary and a real sshd (``SSHLab``): `verdicts fleet` over several devices,
/// each a host alias of the lab reaching a store of its own on this machine (docs/fleet.md).
@Suite(.serialized) struct FleetBinaryTests {
  /// A lab with `hosts`, and a store for each holding `waiting[i]` writes (none: the path only).
  struct Fleet {
    let lab: SSHLab
    let folder = TempFolder()
    let specs: [String]
    let environment: [String: String]

    init(hosts: [String], waiting: [Int?]) throws {
      lab = try SSHLab(hosts: hosts)
      let binary = try Binary.require()
      environment = lab.environment(remoteBinary: binary)
      var specs: [String] = []
      for (host, n) in zip(hosts, waiting) {
        let store = folder.file("\(host).store")
        for _ in 0..<(n ?? 0) {
          let r = try Binary.run(
            ["items", "create", "--type", "note", "--properties", "{}"], store: store, home: folder.path)
          #expect(r.code == 0, "\(r)")
        }
        specs.append("\(host):\(store)")
      }
      self.specs = specs
    }

    func spawn(_ arguments: [String]) throws -> Spawned {
      try Spawned(arguments, environment: Binary.environment(store: nil, home: folder.path, environment))
    }

    func run(_ arguments: [String], timeout: Double = 60) throws -> CommandResult {
      try Binary.run(arguments, store: nil, home: folder.path, environment: environment, timeout: timeout)
    }
  }

  /// The `--plain` lines printed so far, by the device they start with (the last one each).
  static func lastLines(_ text: String) -> [String: String] {
    var out: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let colon = line.range(of: ": ") else { continue }
      out[String(line[..<colon.lowerBound])] = String(line)
    }
    return out
  }

  @Test func plainOnceListsEveryDeviceWithItsCountsTroubleFirst() throws {
    let fleet = try Fleet(hosts: ["d1", "d2", "d3"], waiting: [2, 1, nil])
    let r = try fleet.run(["fleet", "--plain", "--once"] + fleet.specs)
    #expect(r.code == 0, "\(r)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(r)")
    // d3's store does not exist: the device cannot serve it, and its row says why, first.
    #expect(lines.first?.hasPrefix(fleet.specs[2] + ": unreachable · unreachable since ") == true, "\(r)")
    let d1 = try #require(lines.first { $0.hasPrefix(fleet.specs[0] + ":") }, "\(r)")
    #expect(d1.contains(": waiting · reachable · store "), "\(d1)")
    #expect(d1.contains(" · waiting 2 · answered 0 · blocked 0 · dead 0 · "), "\(d1)")
    let d2 = try #require(lines.first { $0.hasPrefix(fleet.specs[1] + ":") }, "\(r)")
    #expect(d2.contains(" · waiting 1 · "), "\(d2)")
  }

  @Test func hostsFromAFileSkipCommentsAndBlankLinesAndAreNamedOnce() throws {
    let fleet = try Fleet(hosts: ["d1", "d2"], waiting: [1, 3])
    let file = fleet.folder.file("hosts")
    try "# the lab\n\n\(fleet.specs[0])\n  \(fleet.specs[1])  \n\(fleet.specs[0])\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let r = try fleet.run(["fleet", "--plain", "--once", "--hosts", file, fleet.specs[1]])
    #expect(r.code == 0, "\(r)")
    #expect(r.stdout.split(separator: "\n").count == 2, "\(r)")
    let lines = Self.lastLines(r.stdout)
    #expect(lines[fleet.specs[0]]?.contains(" · waiting 1 · ") == true, "\(r)")
    #expect(lines[fleet.specs[1]]?.contains(" · waiting 3 · ") == true, "\(r)")
  }

  @Test func aBadHostListIsAUsageErrorAndStartsNothing() throws {
    let t = TempFolder()
    let lab = try SSHLab(hosts: ["d1"])
    let env = lab.environment(remoteBinary: try Binary.require())
    let empty = t.file("empty")
    try "# nothing here\n\n".write(toFile: empty, atomically: true, encoding: .utf8)
    let cases: [([String], String)] = [
      (["fleet"], "no devices"),
      (["fleet", "--hosts", empty], "no devices"),
      (["fleet", "--hosts", t.file("missing")], "no such file"),
      (["fleet", "--hosts", t.path], "hosts file"),
      (["fleet", "d1:/x", "not/a/host"], "is not a device"),
      (["fleet", "d1", "ssh://:22/x"], "is not a device"),
      (["fleet", "--ssh-config-hosts", "d*"], ".ssh/config does not exist"),
      (["fleet", "--once", "d1"], "--once goes with --plain"),
    ]
    for (arguments, words) in cases {
      let r = try Binary.run(arguments, store: nil, home: t.path, environment: env)
      #expect(r.code == 2, "\(arguments): \(r)")
      #expect(r.stderr.contains(words) && r.stderr.contains("nothing was started"), "\(arguments): \(r)")
      #expect(r.stdout.isEmpty, "\(arguments): \(r)")
      // Nothing started: no session reached the lab's server.
      #expect(lab.sessions().isEmpty, "\(arguments)")
    }
  }

  @Test func hostsFromTheSSHConfigAreItsNonWildcardNamesThePatternMatches() throws {
    let fleet = try Fleet(hosts: ["dev-a", "dev-b"], waiting: [1, 1])
    // The person's ~/.ssh/config: the lab's aliases, a wildcard entry and one the pattern leaves out.
    try FileManager.default.createDirectory(atPath: fleet.folder.file(".ssh"), withIntermediateDirectories: true)
    let config = try String(contentsOfFile: fleet.lab.folder.file("ssh_config"), encoding: .utf8)
    try (config + "Host * !other\n  ServerAliveInterval 5\nHost other\n  HostName 127.0.0.1\n").write(
      toFile: fleet.folder.file(".ssh/config"), atomically: true, encoding: .utf8)
    // Their default store is the device's own: the fleet names them by host alone.
    let r = try fleet.run(["fleet", "--plain", "--once", "--ssh-config-hosts", "dev-*"])
    #expect(r.code == 0, "\(r)")
    let names = Set(Self.lastLines(r.stdout).keys)
    #expect(names == ["dev-a", "dev-b"], "\(r)")
  }

  @Test func aFrozenLinkIsShownUnreachableWithinTenSecondsAndReachableAfter() throws {
    let fleet = try Fleet(hosts: ["d1", "d2"], waiting: [1, 2])
    let watch = try fleet.spawn(["fleet", "--plain"] + fleet.specs)
    defer { watch.kill() }
    #expect(
      waitUntil(within: .seconds(30)) {
        Self.lastLines(watch.stdout).values.filter { $0.contains("reachable") }.count == 2
      },
      "\(watch.stdout)\(watch.stderr)")
    let printed = watch.stdout.count
    let frozen = ContinuousClock.now
    fleet.lab.freezeLinks()
    #expect(
      waitUntil(within: .seconds(10)) {
        let after = String(watch.stdout.dropFirst(printed))
        return fleet.specs.allSatisfy { s in after.contains(s + ": unreachable · unreachable since ") }
      }, "\(watch.stdout)")
    let seen = ContinuousClock.now - frozen
    print("fleet: a frozen link shown unreachable after \(seen)")
    #expect(seen < .seconds(10), "shown after \(seen)")
    // The sessions go (a cable put back behind a reset): the fleet connects again on its own.
    fleet.lab.cutLinks()
    #expect(
      waitUntil(within: .seconds(30)) {
        fleet.specs.allSatisfy { Self.lastLines(watch.stdout)[$0]?.contains(": waiting · reachable") == true }
      }, "\(watch.stdout)")
  }

  @Test func aCutSessionIsShownUnreachableAtOnceAndReachableAgain() throws {
    let fleet = try Fleet(hosts: ["d1"], waiting: [1])
    let watch = try fleet.spawn(["fleet", "--plain"] + fleet.specs)
    defer { watch.kill() }
    #expect(waitUntil(within: .seconds(30)) { watch.stdout.contains(": waiting · reachable") }, "\(watch.stdout)")
    let printed = watch.stdout.count
    fleet.lab.cutLinks()
    #expect(
      waitUntil(within: .seconds(10)) {
        watch.stdout.dropFirst(printed).contains(": unreachable · unreachable since ")
      },
      "\(watch.stdout)")
    #expect(
      waitUntil(within: .seconds(30)) { Self.lastLines(watch.stdout)[fleet.specs[0]]?.contains("· reachable") == true },
      "\(watch.stdout)")
  }

  @Test func theScreenShowsTheTableAndEnterThenQReturnsToIt() throws {
    let fleet = try Fleet(hosts: ["d1", "d2"], waiting: [1, 2])
    let screen = try ScreenPty(
      ["fleet", "d1:" + fleet.folder.file("d1.store"), "d2:" + fleet.folder.file("d2.store")],
      environment: Binary.environment(store: nil, home: fleet.folder.path, fleet.environment), width: 100, height: 30)
    defer { screen.stop() }
    #expect(screen.waitFor("verdicts fleet", timeout: 20), "\(screen.text)")
    #expect(screen.waitFor("HOST", timeout: 5), "\(screen.text)")
    #expect(screen.waitFor("waiting", timeout: 30), "\(screen.text)")
    // The device's full screen: its panes (enter again while the top device is still connecting).
    let before = screen.bytes.count
    #expect(
      waitUntil(within: .seconds(30), every: .seconds(2)) {
        if screen.text(after: before).contains("Answered") { return true }
        screen.type("\r")
        return waitUntil(within: .seconds(2)) { screen.text(after: before).contains("Answered") }
      }, "\(screen.text)")
    // q there: back to the fleet, which still runs.
    let back = screen.bytes.count
    screen.type("q")
    #expect(waitUntil(within: .seconds(20)) { screen.text(after: back).contains("verdicts fleet") }, "\(screen.text)")
    #expect(screen.process.isRunning)
    screen.type("q")
    #expect(screen.waitForExit(timeout: 10), "\(screen.text)")
    #expect(screen.process.terminationStatus == 0)
    #expect(screen.modesRestored)
  }
}
