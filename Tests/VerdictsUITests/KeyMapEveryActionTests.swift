import Testing

@testable import VerdictsUI

/// Every action bound to one key. The status line said `q was quit's; now
/// next-pane (quit has no key left)` while `q` quit: the words now say what the whole file left.
@Suite struct KeyMapEveryActionTests {
  /// A key file binding every action to `key`, in `order`.
  static func file(_ order: [Action], key: String = "q") -> String {
    order.map { "\($0.rawValue) = \(key)" }.joined(separator: "\n") + "\n"
  }

  @Test func everyActionBoundToQWithQuitLastSaysQIsQuitAndQQuits() {
    let (map, problems) = KeyMap.read(Self.file(Action.allCases))
    #expect(map.action(for: .char("q")) == .quit)
    let n = Action.allCases.count
    #expect(problems.first?.description == "line \(n): q is bound on \(n) lines (1 to \(n)); the last wins: q is quit")
    // Nothing says quit lost its key: it did not.
    #expect(!problems.contains { $0.message.contains("quit has no key left") || $0.message.contains("was quit's") })
    // Every other action the file bound to q is left with none, said once.
    #expect(problems.count == 2, "\(problems)")
    #expect(problems.last?.message == "next-pane, previous-pane, pane-waiting and \(n - 4) more have no key left")
  }

  @Test func everyActionBoundToQWithQuitFirstSaysQuitHasNoKeyAndQDoesTheLastAction() {
    let order = [Action.quit] + Action.allCases.filter { $0 != .quit }
    let (map, problems) = KeyMap.read(Self.file(order))
    let last = order[order.count - 1]
    #expect(map.action(for: .char("q")) == last)
    #expect(map.keys[.quit] == [])
    #expect(problems.first?.message.hasSuffix("the last wins: q is \(last.rawValue)") == true, "\(problems)")
    #expect(problems.last?.message.hasPrefix("quit, next-pane, previous-pane and ") == true, "\(problems)")
  }

  @Test func aKeyTakenFromItsDefaultThenGivenBackIsNoConflict() {
    // next-pane takes q, then quit takes it back: q quits, as it did.
    let (map, problems) = KeyMap.read("next-pane = q\nquit = q\n")
    #expect(map.action(for: .char("q")) == .quit)
    #expect(
      problems.map(\.description) == [
        "line 2: q was bound to next-pane on line 1; now quit (next-pane has no key left)"
      ])
  }
}
