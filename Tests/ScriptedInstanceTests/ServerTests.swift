import Foundation
import Testing

@testable import ScriptedInstance

@Suite struct ServerTests {
  @Test func rootNamesTheInstanceAndContract() throws {
    let h = try Harness()
    let r = try h.send("GET", "/")
    #expect(r.status == 200)
    #expect(r.header("X-Marfa-Contract") == "2")
    #expect(r.json["instance_id"].string == "00000000-0000-7000-8000-000000000000")
    #expect(r.json["contract"].string == "2")
    #expect(r.json["features"].array == [])
  }
}
