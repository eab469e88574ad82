import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Through the built binary: a moment without file descriptors or memory is said as such and is
/// not a lasting failure (libcurl is loaded again at the next drain), and libcurl's NULL handles
/// are errors, never a crash (docs/reliability.md, "Third attack round (B)").
@Suite(.serialized) struct PassingShortageBinaryTests {
  /// A filled store with `count` writes waiting, and the instance it was filled from.
  func waiting(_ count: Int, _ t: TempFolder) throws -> (ScriptedInstance, [String: String]) {
    let instance = ScriptedInstance(scenario: Scenario(name: "shortage"))
    let url = try instance.start()
    let e = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k-shortage"]
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: e).code == 0)
    for i in 0..<count {
      let r = try Binary.run(
        ["items", "create", "--type", "note", "--id", "w\(i)", "--properties", "{}"], store: t.store, home: t.path)
      #expect(r.code == 0, "\(r)")
    }
    return (instance, e)
  }

  @Test func aDrainWithTooFewFileDescriptorsSaysSoAndNeverToInstallLibcurl() throws {
    let t = TempFolder()
    let (instance, e) = try waiting(2, t)
    defer { instance.stop() }
    var saidForNow = false
    // The limit at which the store opens but libcurl does not depends on what the process has
    // open: every limit from too few for the store to enough for all.
    for n in 8...24 {
      let r = try Binary.run(
        ["drain"], store: t.store, home: t.path, environment: e, through: ["/usr/bin/prlimit", "--nofile=\(n)"])
      #expect(!r.stderr.contains("install the libcurl4 package"), "--nofile=\(n): \(r)")
      #expect(r.code == 0 || r.code == 3, "--nofile=\(n): \(r)")
      if r.stderr.contains("libcurl could not be loaded") {
        #expect(r.stderr.contains("too many files open"), "--nofile=\(n): \(r)")
        #expect(r.stderr.contains("the next request tries again"), "--nofile=\(n): \(r)")
        saidForNow = true
      }
    }
    #expect(saidForNow, "no limit between 8 and 24 kept libcurl from loading")
  }

  @Test func aScreenThatCouldNotLoadLibcurlForWantOfDescriptorsDrainsOnceTheyAreBack() throws {
    let t = TempFolder()
    let (instance, e) = try waiting(9, t)
    defer { instance.stop() }
    let log = t.path + "/tui.log"
    let tui = try ScreenPty(
      ["tui", "--log", log], environment: Binary.environment(store: t.store, home: t.path, e), width: 160)
    defer { tui.stop() }
    #expect(tui.waitFor("auto-drain", timeout: 30), "\(tui.text.suffix(600).debugDescription)")
    let logged = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
    // Its soft limit lowered to what it has open: the next file it opens is refused (EMFILE).
    let pid = tui.process.processIdentifier
    let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    let lowered = try ChildProcess.run("/usr/bin/prlimit", ["--pid", "\(pid)", "--nofile=\(open):4096"])
    #expect(lowered.shellStatus == 0, "\(lowered)")
    tui.type("d")
    #expect(waitUntil(within: .seconds(20)) { logged().contains("too many files open") }, "\(logged())")
    #expect(!logged().contains("install the libcurl4 package"), "\(logged())")
    // The limit back: the next drain loads libcurl and answers every write.
    let raised = try ChildProcess.run("/usr/bin/prlimit", ["--pid", "\(pid)", "--nofile=1024:4096"])
    #expect(raised.shellStatus == 0, "\(raised)")
    tui.type("d")
    #expect(waitUntil(within: .seconds(30)) { logged().contains("drained: answered 9") }, "\(logged())")
    tui.type("q")
    #expect(tui.waitForExit(timeout: 10))
  }

  @Test(.disabled(if: SanitizerRun.active, "an address-space limit: a sanitizer's shadow memory needs more"))
  func aDrainOutOfMemorySaysSoAndExitsThreeWithoutACrashOrAStall() throws {
    let t = TempFolder()
    let (instance, e) = try waiting(2, t)
    defer { instance.stop() }
    // Address-space limits from too low to start (said before anything runs) to enough: each ends
    // in words or a drain, in a moment. Once, 80,000 KiB crashed in curl_multi_init's NULL, and at
    // 100,000 KiB libdispatch, unable to start its threads, slept and tried again past 30 s.
    var saidOutOfMemory = false
    var drained = false
    for kib in stride(from: 70_000, through: 160_000, by: 6_000) {
      let started = ContinuousClock.now
      let r = try Binary.run(
        ["drain"], store: t.store, home: t.path, environment: e,
        through: ["/bin/sh", "-c", "ulimit -v \(kib) && exec \"$0\" \"$@\""])
      let took = ContinuousClock.now - started
      #expect(r.code == 0 || r.code == 3, "ulimit -v \(kib): exit \(r.code) \(r)")
      #expect(!r.stderr.contains("crashed") && !r.stderr.contains("Fatal error"), "ulimit -v \(kib): \(r)")
      #expect(took < .seconds(4), "ulimit -v \(kib): \(took) \(r)")
      if r.code == 3 {
        #expect(r.stderr.contains("out of memory"), "ulimit -v \(kib): \(r)")
        saidOutOfMemory = true
      }
      if kib >= 140_000 {
        #expect(r.code == 0, "ulimit -v \(kib): \(r)")
        drained = drained || r.code == 0
      }
    }
    #expect(saidOutOfMemory)
    #expect(drained)
  }

  @Test(.disabled(if: SanitizerRun.active, "an address-space limit: a sanitizer's shadow memory needs more"))
  func anAddressSpaceLimitTooLowToStartIsSaidBeforeAnythingRunsAndChangesNothing() throws {
    let t = TempFolder()
    let (instance, e) = try waiting(2, t)
    defer { instance.stop() }
    let before = try Binary.run(["--json", "queue"], store: t.store, home: t.path).stdout
    let asked = instance.requests.count
    for command in [["drain"], ["status"], ["--json", "drain"]] {
      let r = try Binary.run(
        command, store: t.store, home: t.path, environment: e,
        through: ["/bin/sh", "-c", "ulimit -v 100000 && exec \"$0\" \"$@\""])
      #expect(r.code == 3, "\(command): \(r)")
      if command.first == "--json" {
        #expect(r.stderr.contains("\"out_of_memory\""), "\(r)")
      } else {
        #expect(r.stderr.contains("out of memory: the address-space limit (ulimit -v) is 97 MiB"), "\(r)")
        #expect(r.stderr.contains("nothing was done"), "\(r)")
      }
    }
    #expect(try Binary.run(["--json", "queue"], store: t.store, home: t.path).stdout == before)
    #expect(instance.requests.count == asked)
  }

}
