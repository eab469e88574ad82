import Foundation
import ScriptedInstance
import TestSupport
import Testing

/// Through the built binary: `show ID` racing the write's departure (`forget`, as a `discard`
/// or a take) finds it in the queue or in the archive, never nowhere (docs/reliability.md,
/// "Third attack round (B)").
@Suite(.serialized) struct ShowRaceBinaryTests {
  @Test func showRacingTheWritesDepartureAlwaysFindsItInTheQueueOrTheArchive() throws {
    let t = TempFolder()
    let instance = ScriptedInstance(scenario: Scenario(name: "race"))
    let url = try instance.start()
    defer { instance.stop() }
    let e = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k-race"]
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: e).code == 0)
    let count = 100
    for i in 0..<count {
      let r = try Binary.run(
        ["items", "create", "--type", "note", "--id", "r\(i)", "--properties", "{}"], store: t.store, home: t.path)
      #expect(r.code == 0, "\(r)")
    }
    #expect(try Binary.run(["drain"], store: t.store, home: t.path, environment: e).code == 0)
    let queue = try Binary.run(["--json", "queue"], store: t.store, home: t.path)
    let ids = queue.json?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    #expect(ids.count == count)
    let environment = Binary.environment(store: t.store, home: t.path, [:])
    var fromArchive = 0
    for id in ids {
      let show = try Spawned(["show", id], environment: environment)
      let forget = try Spawned(["forget", id], environment: environment)
      #expect(show.wait(timeout: 30) && forget.wait(timeout: 30))
      let shown = show.result()
      #expect(shown.code == 0, "\(shown)")
      #expect(!shown.stderr.contains("holds no write"), "\(shown)")
      #expect(shown.stdout.contains(id), "\(shown)")
      if shown.stdout.hasPrefix("left the queue:") { fromArchive += 1 }
      #expect(forget.result().code == 0)
    }
    // (How many were read from the archive depends on the race; each reading is right.)
    print("show found \(fromArchive) of \(ids.count) writes in the archive")
  }
}
