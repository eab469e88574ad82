import Foundation
import Testing

@testable import VerdictsUI

/// Every action of the key map is named in docs/keys.md (as keys.conf spells it), and one of its
/// default keys is in the README's Keys section; every pane's title word is there too.
@Suite struct KeyDocsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The README from `## Keys` up to the next section.
  static func readmeKeys() throws -> String {
    let readme = try text("README.md")
    let start = try #require(readme.range(of: "\n## Keys\n"))
    let rest = readme[start.upperBound...]
    return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
  }

  @Test func everyActionIsInKeysMd() throws {
    let keys = try Self.text("docs/keys.md")
    let missing = Action.allCases.filter { !keys.contains("`\($0.rawValue)`") }
    #expect(missing.isEmpty, "docs/keys.md does not name: \(missing.map(\.rawValue))")
  }

  @Test func everyActionHasADefaultKeyInTheReadme() throws {
    let section = try Self.readmeKeys()
    // Spelled as a group in the README's prose.
    let prose: [Action: String] = [
      .pageDown: "page keys", .pageUp: "page keys", .down: "arrows", .up: "arrows", .paneAnswered: "`1`–`4`",
      .paneBlocked: "`1`–`4`",
    ]
    let missing = Action.allCases.filter { action in
      if let words = prose[action], section.contains(words) { return false }
      let keys = KeyMap.defaults.keys[action] ?? []
      return !keys.contains { section.contains("`\($0.spelling)`") }
    }
    #expect(
      missing.isEmpty,
      "README's Keys section has no default key of: \(missing.map { "\($0.rawValue) (\((KeyMap.defaults.keys[$0] ?? []).map(\.spelling)))" })"
    )
  }
}
