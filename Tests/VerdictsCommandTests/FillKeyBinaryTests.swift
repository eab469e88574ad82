import Foundation
import ScriptedInstance
import TestSupport
import Testing

/// A fill (or a catch-up) refused 401 with no key given says where a key comes from; with a
/// key given, it is the instance's refusal as it came.
@Suite struct FillKeyBinaryTests {
  @Test func aFillWithNoKeySaysWhereAKeyComesFromAndOneWithAWrongKeyIsTheInstancesRefusal() throws {
    let t = TempFolder()
    let instance = ScriptedInstance(scenario: try Scenario.load("tour"))
    let url = try instance.start()
    defer { instance.stop() }
    let none = try Binary.run(["fill", "--url", url.absoluteString], store: t.store, home: t.path)
    #expect(none.code == 1, "\(none)")
    #expect(
      none.stderr.contains(
        "the instance asks for a key (401) and none was given: MARFA_API_KEY, --key-file FILE or --key - gives it"),
      "\(none)")
    let json = try Binary.run(["--json", "fill", "--url", url.absoluteString], store: t.store, home: t.path)
    #expect(json.stderr.contains(#""code":"server""#) && json.stderr.contains(#""status":401"#), "\(json)")
    let wrong = try Binary.run(
      ["fill", "--url", url.absoluteString], store: t.store, home: t.path, environment: ["MARFA_API_KEY": "wrong"])
    #expect(wrong.code == 1 && wrong.stderr.contains("the instance refused (401)"), "\(wrong)")
    #expect(!wrong.stderr.contains("none was given"), "\(wrong)")
  }
}
