import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A catch-up names the read view its fill was certified with, as the contract's `/events`
/// asks; the scripted instance refuses a replay that does not, as the contract's does.
@Suite struct CatchUpReadViewTests {
  @Test func aCatchUpNamesTheReadViewItsFillWasCertifiedWith() async throws {
    let h = try await DrainHarness(items: [SeedItem(id: "n1", type: "note")])
    try await h.copy.catchUp()
    let replay = h.requests("GET", "/events").last { r in r.headers.contains { $0.name == "Last-Event-ID" } }
    let view = replay?.headers.first { $0.name.lowercased() == "x-marfa-read-view" }?.value
    #expect(view == String(repeating: "a", count: 64))
  }

  @Test func theScriptedInstanceRefusesAReplayThatNamesNoReadView() async throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "test"))
    let url = try instance.start()
    defer { instance.stop() }
    let events = URL(string: "/events?edges=all&copy=1", relativeTo: url)!
    var request = URLRequest(url: events)
    request.setValue("0", forHTTPHeaderField: "Last-Event-ID")
    request.setValue("Bearer k1", forHTTPHeaderField: "Authorization")
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 400)
  }
}
