import MarfaQueue
import Testing

@testable import VerdictsUI

/// On the screen: a filter naming a field there is not is said under the `/`
/// prompt as it is typed, is never applied (what was applied stays), and enter does not take it.
@Suite struct FilterProblemScreenTests {
  @Test(arguments: [(80, 24), (160, 48), (40, 10)])
  func anUnknownFieldIsSaidAsItIsTypedNamingTheFieldsAndIsNotApplied(size: (Int, Int)) {
    var s = Fixtures.state(width: size.0, height: size.1, focus: .blocked)
    for c in "/alone" { _ = s.handle(.key(.char(c))) }
    #expect(s.filter == "alone")
    for c in " reasn:" { _ = s.handle(.key(.char(c))) }
    // `reasn:` with no value yet is plain text; `reasn:x` is refused, and what was applied stays.
    #expect(s.filterProblem == nil)
    let applied = s.filter
    _ = s.handle(.key(.char("x")))
    #expect(s.filter == applied)
    let problem = try! #require(s.filterProblem)
    #expect(problem.contains("unknown filter field 'reasn'") && problem.contains("did you mean reason?"))
    #expect(problem.contains("reason, kind, status, verdict, row, streak, body"))
    let text = Renderer.render(s).text
    #expect(text.contains("unknown filter field"), "\(text)")
    // The prompt is still the bottom line, the problem above it.
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.last?.hasPrefix("filter: alone reasn:x") == true, "\(text)")
    // enter does not take it; fixing the word does, as it is typed.
    _ = s.handle(.key(.enter))
    #expect(s.prompt != nil && s.filter == applied)
    for _ in 0..<4 { _ = s.handle(.key(.backspace)) }
    for c in "son:failing_alone" { _ = s.handle(.key(.char(c))) }
    #expect(s.filterProblem == nil)
    #expect(s.filter == "alone reason:failing_alone")
    #expect(!Renderer.render(s).text.contains("unknown filter field"))
  }

  @Test func aValueItsFieldCannotTakeIsSaidToo() {
    var s = Fixtures.state(width: 120, height: 40)
    for c in "/status:" { _ = s.handle(.key(.char(c))) }
    let applied = s.filter
    for c in "abc" { _ = s.handle(.key(.char(c))) }
    #expect(s.filter == applied)
    #expect(s.filterProblem == "'status:abc': status takes an HTTP status (status:502)")
  }

  @Test("a field term being typed is not applied until its value comes and the hint says a refused one is not")
  func aFieldTermBeingTypedIsNotAppliedUntilItsValueComesAndTheHintSaysARefusedOneIsNot() {
    var s = Fixtures.state(width: 80, height: 24)
    var applied: [String?] = []
    for c in "/streak:>=2" {
      _ = s.handle(.key(.char(c)))
      applied.append(s.filter)
    }
    // `streak:` (no value yet), `streak:>` and `streak:>=` (refused) never reach the panes.
    #expect(!applied.contains("streak:") && !applied.contains("streak:>") && !applied.contains("streak:>="))
    #expect(s.filter == "streak:>=2")
    _ = s.handle(.key(.backspace))
    let lines = Renderer.render(s).text.split(separator: "\n")
    #expect(lines.last?.hasPrefix("filter: streak:>=▏  not applied · esc cancels") == true, "\(lines.last ?? "")")
  }
}
