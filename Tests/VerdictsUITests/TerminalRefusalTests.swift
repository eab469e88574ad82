import Testing

@testable import VerdictsUI

/// A terminal that cannot run the TUI is refused in one line naming `watch --plain`, said once;
/// ASCII glyphs are never a border character.
@Suite struct TerminalRefusalTests {
  @Test(arguments: ["dumb", "", nil] as [String?])
  func aTerminalThatCannotAddressTheCursorIsRefusedNamingWatchPlain(term: String?) {
    let refusal = AppError.check(stdinIsTerminal: true, stdoutIsTerminal: true, term: term)
    #expect(refusal == .cannotAddressCursor(term: term))
    let message = refusal?.message ?? ""
    #expect(message.contains("`verdicts watch --plain`"))
    #expect(!message.contains("\n"))
  }

  @Test func withoutATerminalTheMessageNamesWatchPlainOnce() {
    let refusal = AppError.check(stdinIsTerminal: false, stdoutIsTerminal: true, term: "xterm")
    let message = refusal?.message ?? ""
    #expect(message.components(separatedBy: "watch --plain").count == 2, "\(message)")
    #expect(message.components(separatedBy: "pipes and logs").count == 2, "\(message)")
  }

  @Test func aTerminalThatCanIsLetThrough() {
    #expect(AppError.check(stdinIsTerminal: true, stdoutIsTerminal: true, term: "xterm-256color") == nil)
  }

  @Test func asciiVerdictGlyphsAreNeitherBordersNorTheEllipsis() {
    let g = Glyphs.ascii
    let frame: Set = [g.horizontal, g.vertical, g.topLeft, g.topRight, g.bottomLeft, g.bottomRight, g.ellipsis]
    let marks = [g.waiting, g.held, g.accepted, g.merged, g.conflicted, g.refused, g.blocked, g.dead, g.mark]
    #expect(frame.isDisjoint(with: marks))
    #expect(Set(marks).count == marks.count)
  }
}
