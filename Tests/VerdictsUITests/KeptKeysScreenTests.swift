import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// A screen that keeps its keys: a long message never pushes the selected write's keys off the
/// bottom line, and every word of it stays readable; the help overlay fits and scrolls.
@Suite struct KeptKeysScreenTests {
  static let sizes = [(40, 10), (80, 24), (160, 48)]
  static let longMessage =
    "drained: answered 0, held 0, undelivered 0, unsent 0, unmade 0; stopped: the instance refused the key"
    + " (401 unauthorized); "
    + "1 row(s) parked until a key works; press K and give another key, then d drains again"

  /// The selected write's key hints the bottom line must keep.
  static func writeKeys(_ s: UIState) -> [String] {
    Renderer(state: s).writeActions().compactMap { a in s.keyMap.hint(a).map { "\($0) \(a.hint)" } }
  }

  static func lines(_ s: UIState) -> [String] {
    Renderer.render(s).text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  @Test(arguments: sizes)
  func aLongMessageLeavesTheSelectedWritesKeysOnTheBottomLine(size: (Int, Int)) {
    var s = Fixtures.state(width: size.0, height: size.1, focus: .blocked, select: 4)
    #expect(s.selectedWrite?.id == "b-alone")
    _ = s.handle(.outcome(Self.longMessage, isError: true))
    let lines = Self.lines(s).filter { !$0.isEmpty }
    let bottom = lines.last ?? ""
    let keys = Self.writeKeys(s)
    #expect(keys.contains("r release") && keys.contains("w withdraw"))
    if size.0 >= 80 {
      for key in keys { #expect(bottom.contains(key), "\(size): \(key) missing from \(bottom)") }
    } else {
      // At 40 columns the first key, what clears it, is always there (its word maybe shortened).
      #expect(bottom.hasPrefix(String(keys[0].prefix { $0 != " " }) + " "), "\(bottom)")
    }
    #expect(bottom.hasSuffix("? help q quit"), "\(size): \(bottom)")
    Golden.check("long-message-\(size.0)x\(size.1)", ScreenTests.screen(s))
  }

  @Test(arguments: [(80, 24), (160, 48)])
  func everyWordOfALongMessageIsOnTheScreen(size: (Int, Int)) {
    var s = Fixtures.state(width: size.0, height: size.1, focus: .blocked, select: 4)
    _ = s.handle(.outcome(Self.longMessage, isError: true))
    let text = Self.lines(s).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    let flat = text.split(separator: " ").joined(separator: " ")
    #expect(flat.contains(Self.longMessage), "\(flat)")
  }

  @Test func aShortMessageStaysOnTheBottomLineBeforeTheKeys() {
    var s = Fixtures.state(width: 80, height: 24, focus: .blocked, select: 4)
    _ = s.handle(.outcome("released 1", isError: false))
    let bottom = Self.lines(s).last { !$0.isEmpty } ?? ""
    #expect(bottom.hasPrefix(" released 1   r release"), "\(bottom)")
  }

  @Test func theKeyThatClearsAWriteComesFirst() {
    var cred = Fixtures.state(width: 160, height: 48, focus: .blocked, select: 0)
    #expect(cred.selectedWrite?.verdict?.blockedReason == .credentialRefused)
    #expect(Renderer(state: cred).writeActions().first == .useKey)
    cred.focus = .blocked
    let conflict = Fixtures.state(width: 160, height: 48, focus: .blocked, select: 3)
    #expect(conflict.selectedWrite?.verdict?.blockedReason == .conflictUnresolved)
    #expect(Renderer(state: conflict).writeActions().first == .withdraw)
  }

  @Test func helpStartsWithTheKeysForTheSelectionAndHasAGlyphLegend() {
    let s = Fixtures.state(width: 80, height: 24, focus: .blocked, select: 4)
    let lines = Renderer(state: s).helpLines(width: 60).map(\.plain)
    #expect(lines.first == "For b-alone (blocked failing_alone)")
    #expect(lines.dropFirst().first?.hasPrefix("r ") == true)
    for glyph in ["○", "◌", "✓", "≈", "⇄", "✗", "■", "†"] {
      #expect(lines.contains { $0.hasPrefix(glyph + " ") }, "no legend for \(glyph)")
    }
    for word in ["held", "unsent", "unmade"] {
      #expect(lines.contains { $0.hasPrefix(word + " ") }, "\(word) unexplained")
    }
  }

  @Test(arguments: sizes)
  func helpFitsEachSizeAndScrollsToItsEnd(size: (Int, Int)) {
    var s = Fixtures.state(width: size.0, height: size.1, focus: .blocked, select: 4)
    _ = s.handle(.key(.char("?")))
    let first = Self.lines(s)
    Golden.check("help-kept-\(size.0)x\(size.1)", ScreenTests.screen(s))
    // No entry is cut: a cut line ends in the ellipsis before the border.
    #expect(!first.contains { $0.contains("…│") }, "\(first.joined(separator: "\n"))")
    for _ in 0..<200 { _ = s.handle(.key(.char("j"))) }
    let end = Self.lines(s).joined(separator: "\n")
    #expect(end.contains("unmade"), "\(end)")
  }
}
