import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `verdicts watch --plain` as support staff run it: a line per change, stopped by ctrl-c.
@Suite(.serialized) struct WatchPlainTests {
  @Test func watchPlainPrintsALinePerChangeFromAnotherProcessAndStopsCleanlyOnSigint() throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t"))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    let env = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k"]
    _ = try Binary.run(["fill"], store: t.store, home: t.path, environment: env)
    _ = try Binary.run(
      ["items", "create", "--type", "note", "--id", "w1", "--properties", "{}"], store: t.store, home: t.path)
    let watch = try Spawned(["watch", "--plain"], environment: Binary.environment(store: t.store, home: t.path, [:]))
    defer { watch.kill() }
    #expect(watch.waitForLine(timeout: 10))
    waitUntil(within: .seconds(10)) { watch.stdout.contains("queued") }
    let drain = try Binary.run(["drain"], store: t.store, home: t.path, environment: env)
    #expect(drain.code == 0, "\(drain)")
    waitUntil(within: .seconds(15)) { watch.stdout.contains("accepted") }
    #expect(watch.stdout.contains("create_item"))
    #expect(watch.stdout.contains("accepted"), "\(watch.stdout)")
    kill(watch.process.processIdentifier, SIGINT)
    #expect(watch.wait(timeout: 10))
    #expect(watch.process.terminationStatus == 0)
  }
}
