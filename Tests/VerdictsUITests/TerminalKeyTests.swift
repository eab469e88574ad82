import MarfaQueue
import Testing

@testable import VerdictsUI

@Suite struct TerminalKeyTests {
  @Test func wideInputBecomesKeys() {
    #expect(NcursesTerminal.key(char: 9) == .tab)
    #expect(NcursesTerminal.key(char: 13) == .enter)
    #expect(NcursesTerminal.key(char: 27) == .escape)
    #expect(NcursesTerminal.key(char: 127) == .backspace)
    #expect(NcursesTerminal.key(char: 12) == .ctrl("l"))
    #expect(NcursesTerminal.key(char: 0xE9) == .char("é"))
    #expect(NcursesTerminal.key(char: 0x4E2D) == .char("中"))
    #expect(NcursesTerminal.key(char: 0x20) == .char(" "))
    #expect(NcursesTerminal.key(code: 259) == .up)  // KEY_UP
    #expect(NcursesTerminal.key(code: 338) == .pageDown)  // KEY_NPAGE
    #expect(NcursesTerminal.key(code: 353) == .backTab)  // KEY_BTAB
    #expect(NcursesTerminal.key(code: 265) == .function(1))  // KEY_F(1)
  }

  @Test func gridTerminalCountsChangedCells() {
    let t = GridTerminal(width: 10, height: 2)
    var g = Grid(width: 10, height: 2)
    t.present(g)
    #expect(t.changedCells == 20)
    t.present(g)
    #expect(t.changedCells == 0)
    g.put("ab", x: 0, y: 1)
    t.present(g)
    #expect(t.changedCells == 2)
    t.invalidate()
    t.present(g)
    #expect(t.changedCells == 20)
    t.resize(width: 5, height: 1)
    #expect(t.readInput() == [.resize(width: 5, height: 1)])
    t.restore()
    #expect(t.restored && t.frames == 4)
  }
}
