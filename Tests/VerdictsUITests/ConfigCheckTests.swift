import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// `ConfigCheck` finds what the TUI finds at start: the same problems, every one with its line.
@Suite struct ConfigCheckTests {
  @Test func itFindsAsManyProblemsAsTheTUISeesAtStart() throws {
    let dir = FileManager.default.temporaryDirectory.path + "/config-check-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir + "/verdicts/themes", withIntermediateDirectories: true)
    try "clipboard = maybe\nfoo = 1\ntheme = odd\n".write(
      toFile: dir + "/verdicts/config", atomically: true, encoding: .utf8)
    try "bogus = x\n".write(toFile: dir + "/verdicts/keys.conf", atomically: true, encoding: .utf8)
    try "nope = red\n".write(toFile: dir + "/verdicts/themes/odd.theme", atomically: true, encoding: .utf8)
    let options = AppOptions(environment: ["XDG_CONFIG_HOME": dir])
    let seen = VerdictsApp.prepare(source: FakeQueue(writes: []), options: options).problems
    let found = ConfigCheck.run(options: options)
    #expect(found.findings.count == seen.count, "\(found.findings) vs \(seen)")
    #expect(found.findings.count == 4)
    #expect(found.findings.allSatisfy { $0.line != nil })
    #expect(found.theme == "odd")
  }
}
