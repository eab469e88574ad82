import MarfaQueue
import Testing

@testable import VerdictsUI

/// Golden screens per theme: the text, then each row's runs of roles with the style the theme
/// gives them on a 256-colour terminal; and each theme's table at 256, 16 and 8 colours and none.
@Suite struct ThemeScreenTests {
  static func styled(_ grid: Grid, theme: Theme, depth: ColorDepth) -> String {
    var out = grid.text + "\n-- styles (\(theme.name), \(depth.rawValue) colours) --\n"
    for y in 0..<grid.height {
      let runs = grid.runs(y).map { run -> String in
        let style = theme.resolved(run.role, depth: depth)
        return "\(run.x)+\(run.count) \(run.role.rawValue)[\(style.text)]"
      }
      out += "\(y): " + runs.joined(separator: " ") + "\n"
    }
    return out
  }

  @Test(arguments: BuiltinThemes.names)
  func screenInEachTheme(name: String) {
    let theme = Theme.builtin(name)!
    var s = Fixtures.state(width: 80, height: 24, focus: .blocked, select: 4)
    s.marks = ["b-cred"]
    _ = s.handle(.outcome("withdraw refused: the instance could not be read", isError: true))
    let grid = Renderer.render(s)
    Golden.check("theme-\(name)-80x24", Self.styled(grid, theme: theme, depth: name == "mono" ? .none : .colors256))
  }

  @Test(arguments: BuiltinThemes.names)
  func tableInEachTheme(name: String) {
    let theme = Theme.builtin(name)!
    var out = "role".padding(14) + ColorDepth.allCases.reversed().map { $0.rawValue.padding(34) }.joined() + "\n"
    for role in Role.allCases {
      out += role.rawValue.padding(14)
      out += ColorDepth.allCases.reversed().map { theme.resolved(role, depth: $0).text.padding(34) }.joined()
      out = String(out.reversed().drop(while: { $0 == " " }).reversed()) + "\n"
    }
    Golden.check("theme-\(name)-table", out)
  }

  @Test func verdictsAreToldApartWithoutColour() {
    // In mono (or any theme with colour off) each verdict still has its own glyph and word.
    let writes = Fixtures.waiting + Fixtures.answered + Fixtures.blockedWrites + Fixtures.dead
    var glyphs: [String: Set<String>] = [:]
    for w in writes {
      glyphs[VerdictText.glyph(w, .unicode), default: []].insert(
        w.verdict?.wireName ?? (w.waiting ? "held" : "waiting"))
    }
    for (_, kinds) in glyphs { #expect(kinds.count == 1, "\(kinds)") }
    var ascii: [String: Set<String>] = [:]
    for w in writes {
      ascii[VerdictText.glyph(w, .ascii), default: []].insert(w.verdict?.wireName ?? (w.waiting ? "held" : "waiting"))
    }
    for (_, kinds) in ascii { #expect(kinds.count == 1, "\(kinds)") }
    #expect(glyphs.count == 8 && ascii.count == 8)
  }
}
