import Foundation
import MarfaQueue
import Testing
import VerdictsUI

@testable import VerdictsCommand

/// The README's `make demo` capture is the real screen: the tour walked on its scripted instance,
/// rendered at 120×40 as the demo opens (on Blocked), compared with the README's fenced capture
/// once what differs from run to run (IDs, times, the port, the pid) is masked.
/// `VERDICTS_RECORD=all` writes this run's screen into the README.
@Suite(.serialized) struct ReadmeScreenTests {
  static let readme = Binary.packageRoot.appendingPathComponent("README.md")
  static let opening = "capture is the screen's:\n\n```\n"

  /// What changes from run to run, masked.
  static func masked(_ text: String) throws -> String {
    var t = text
    let rules: [(String, String)] = [
      (#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"#, "TIME"),
      (#"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#, "UUID"),
      (#"…[0-9a-f]{8}"#, "…ID"),
      (#"[0-9a-f]{8}…"#, "HEX…"),
      (#"\d\d:\d\d:\d\d"#, "HH:MM:SS"),
      (#"127\.0\.0\.1:\d+"#, "127.0.0.1:PORT"),
      (#"pid \d+"#, "pid N"),
      (#"verdicts-demo-[0-9A-F-]+"#, "verdicts-demo-X"),
      // Where a status line is cut moves with the pid's and the times' widths: the last drain's
      // summary, which ends the line, is masked whole (a cut may fall in it or just before it).
      (#"(?m) · drain at [^│\n]*$"#, " · drain at …"),
      (#"(?m)[^·│]*…$"#, "…"),
    ]
    for (pattern, to) in rules { t = t.replacing(try Regex(pattern), with: to) }
    return t
  }

  @Test func theDemoCaptureIsTheScreen() async throws {
    let demo = try await DemoDriver.start(storePath: nil)
    defer { demo.stop() }
    await demo.walkTour(pause: 0.05) { _ in }
    var options = AppOptions(environment: ["HOME": "/nonexistent"])
    options.startPane = .blocked
    options.keyHint = DemoDriver.secondKey
    options.autoDrain = true
    let screen = try await VerdictsApp.renderOnce(copy: demo.copy, size: (120, 40), options: options)
    try Self.compare(screen, with: Self.opening, what: "demo capture")
  }

  static let watcherOpening = "capture is a watcher's screen:\n\n```\n"

  @Test func theWatcherCaptureIsAWatchersScreen() async throws {
    let demo = try await DemoDriver.start(storePath: nil)
    defer { demo.stop() }
    await demo.walkTour(pause: 0.05) { _ in }
    // A second terminal on the demo's store while the demo runs: `verdicts watch`.
    let reader = try await WorkingCopy.openReader(store: URL(fileURLWithPath: demo.copy.storePath))
    defer { reader.close() }
    let screen = try await VerdictsApp.renderOnce(
      copy: reader, size: (110, 30), options: AppOptions(environment: ["HOME": "/nonexistent"]))
    try Self.compare(screen, with: Self.watcherOpening, what: "watcher capture")
  }

  /// Compares a screen with the README's fenced capture after `opening`, masked
  /// (`VERDICTS_RECORD=all` writes the screen there instead).
  static func compare(_ screen: String, with opening: String, what: String) throws {
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0).replacing(try! Regex(#" +$"#), with: "")
    }
    let shown = lines.reversed().drop { $0.isEmpty }.reversed().joined(separator: "\n") + "\n"
    let readme = try String(contentsOf: readme, encoding: .utf8)
    let start = try #require(readme.range(of: opening), "the README's \(what) is not where it was")
    let end = try #require(readme[start.upperBound...].range(of: "```\n"))
    let capture = String(readme[start.upperBound..<end.lowerBound])
    if ProcessInfo.processInfo.environment["VERDICTS_RECORD"] == "all" {
      let updated = readme.replacingCharacters(in: start.upperBound..<end.lowerBound, with: shown)
      try updated.write(to: Self.readme, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      try masked(capture) == masked(shown),
      "README's \(what) differs from the screen (VERDICTS_RECORD=all writes it); the screen:\n\(shown)")
  }
}
