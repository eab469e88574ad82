import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

@testable import VerdictsCommand

/// Through the built binary under libfaketime: a clock that leapt a year, or a device that booted
/// at 1970, never erases the undo archive (docs/rules.md, "The archive and the clock").
///
/// Off under a sanitizer: libfaketime preloaded into a sanitized binary hangs it at its start (a
/// `verdicts --version` under it ran 17 minutes under AddressSanitizer); the plain suite runs them.
@Suite(
  .serialized,
  .disabled(if: SanitizerRun.active, "libfaketime in a sanitized binary: it hangs at its start"))
struct ArchiveClockBinaryTests {
  /// The command line that starts the binary with its wall clock at `faked` (libfaketime).
  func faked(_ faked: String) throws -> [String] {
    try #require(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime"),
      "faketime is not installed (apt-get install faketime libfaketime, or make deps)")
    return ["/usr/bin/faketime", "-f", faked]
  }

  /// A filled store whose writes `items` were all accepted; their write IDs in that order.
  func answered(_ items: [String], _ t: TempFolder) throws -> (ScriptedInstance, [String]) {
    let instance = ScriptedInstance(scenario: Scenario(name: "clock"))
    let url = try instance.start()
    let e = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k-clock"]
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: e).code == 0)
    for item in items {
      let r = try Binary.run(
        ["items", "create", "--type", "note", "--id", item, "--properties", #"{"t":1}"#], store: t.store, home: t.path)
      #expect(r.code == 0, "\(r)")
    }
    #expect(try Binary.run(["drain"], store: t.store, home: t.path, environment: e).code == 0)
    let queue = try Binary.run(["--json", "queue"], store: t.store, home: t.path)
    let ids = try items.map { item in
      try #require(queue.json?.arrayValue?.first { $0["item_id"] == .string(item) }?["id"]?.stringValue)
    }
    return (instance, ids)
  }

  func departed(_ t: TempFolder) throws -> Set<String> {
    let r = try Binary.run(["--json", "departed"], store: t.store, home: t.path)
    #expect(r.code == 0, "\(r)")
    return Set(r.json?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
  }

  @Test func aForgetUnderAClockAYearAheadKeepsEveryEarlierDepartureAndUndoPutsThemBack() throws {
    let t = TempFolder()
    let (instance, ids) = try answered(["A", "B", "C", "D", "E", "F"], t)
    defer { instance.stop() }
    #expect(try Binary.run(["forget"] + ids.prefix(4), store: t.store, home: t.path).code == 0)
    let leapt = try faked("+365d")
    let e = try Binary.run(["forget", ids[4]], store: t.store, home: t.path, through: leapt)
    #expect(e.code == 0, "\(e)")
    #expect(try departed(t) == Set(ids.prefix(5)))
    // The clock stays leapt for the next departure too.
    #expect(try Binary.run(["forget", ids[5]], store: t.store, home: t.path, through: leapt).code == 0)
    #expect(try departed(t) == Set(ids))
    let undo = try Binary.run(["undo", ids[0]], store: t.store, home: t.path, through: leapt)
    #expect(undo.code == 0, "\(undo)")
    #expect(undo.stdout.hasPrefix("put back \(ids[0])"), "\(undo)")
  }

  @Test func aForgetUnderAClockAt1970AndOneAfterItIsSetRightKeepEveryDeparture() throws {
    let t = TempFolder()
    let (instance, ids) = try answered(["A", "B", "C", "D", "E", "F"], t)
    defer { instance.stop() }
    #expect(try Binary.run(["forget"] + ids.prefix(4), store: t.store, home: t.path).code == 0)
    let boot = try faked("@1970-01-01 00:01:00")
    #expect(try Binary.run(["forget", ids[4]], store: t.store, home: t.path, through: boot).code == 0)
    #expect(try departed(t) == Set(ids.prefix(5)))
    // The clock set right: what left at "1970" is not taken for 56 years old.
    #expect(try Binary.run(["forget", ids[5]], store: t.store, home: t.path).code == 0)
    #expect(try departed(t) == Set(ids))
    let undo = try Binary.run(["undo", ids[4]], store: t.store, home: t.path)
    #expect(undo.code == 0, "\(undo)")
  }
}
