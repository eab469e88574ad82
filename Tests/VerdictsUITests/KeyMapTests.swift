import Testing

@testable import VerdictsUI

@Suite struct KeyMapTests {
  @Test func defaultsBindEveryActionToDistinctKeys() {
    let map = KeyMap.defaults
    var seen: [Key: Action] = [:]
    for action in Action.allCases {
      let keys = map.keys[action] ?? []
      #expect(!keys.isEmpty, "\(action) has no key")
      for key in keys {
        #expect(seen[key] == nil, "\(key.spelling) bound twice")
        seen[key] = action
        #expect(map.action(for: key) == action)
      }
    }
    // No destructive action sits on a control key.
    for action in Action.allCases where action.destructive {
      #expect(!(map.keys[action] ?? []).contains { if case .ctrl = $0 { return true } else { return false } })
    }
  }

  @Test func spellingsRoundTrip() {
    for spelling in [
      "r", "R", "space", "tab", "shift-tab", "enter", "esc", "up", "pgdn", "pgup", "home", "end", "ctrl-l", "f1", "/",
      "?", "hash", "equals", "backspace",
    ] {
      let key = Key(spelling: spelling)
      #expect(key != nil, "\(spelling)")
      #expect(key?.spelling == spelling)
    }
    #expect(Key(spelling: "^L") == .ctrl("l"))
    #expect(Key(spelling: "PageDown") == .pageDown)
    #expect(Key(spelling: "ctrl-1") == nil)
    #expect(Key(spelling: "hyper-x") == nil)
  }

  @Test func aSpellingLongerThanAnyKeysNameIsNoKey() {
    // One character of 19 bytes (e and nine combining acute accents) is longer than any key's name.
    let heavy = "e" + String(repeating: "\u{0301}", count: 9)
    #expect(heavy.count == 1 && heavy.utf8.count == 19)
    #expect(Key(spelling: heavy) == nil)
    #expect(Key(spelling: "e\u{0301}") == .char("e\u{0301}"))
    #expect(Key(spelling: String(repeating: "x", count: 100_000)) == nil)
    let (_, problems) = KeyMap.read("release = " + String(repeating: "x", count: 1_000))
    #expect(problems.map(\.line) == [1])
  }

  @Test func aUserBindingReplacesTheDefaultsAndWins() {
    let (map, problems) = KeyMap.read(
      """
      # mine
      drain = D
      quit = Q q
      release = x
      """)
    #expect(map.action(for: .char("D")) == .drain)
    #expect(map.action(for: .char("d")) == nil)
    #expect(map.action(for: .char("Q")) == .quit)
    #expect(map.action(for: .char("x")) == .release)
    #expect(map.keys[.discard] == [])
    #expect(problems.map(\.description) == ["line 4: x was discard's; now release (discard has no key left)"])
  }

  @Test func conflictsInTheFileAreReportedAndTheLaterLineWins() {
    let (map, problems) = KeyMap.read("drain = D\nfollow = D\n")
    #expect(map.action(for: .char("D")) == .follow)
    // drain's own D went to follow: drain is left with none, and that is said.
    #expect(
      problems.map(\.description) == ["line 2: D was bound to drain on line 1; now follow (drain has no key left)"])
  }

  @Test func unknownActionsKeysAndControlKeysForDestructiveActionsAreRefused() {
    let (map, problems) = KeyMap.read(
      """
      explode = e
      drain = hyper-d
      discard = ctrl-x
      withdraw = none
      help
      """)
    #expect(
      problems.map(\.description) == [
        "line 1: unknown action 'explode'",
        "line 2: unknown key 'hyper-d'",
        "line 3: discard may not sit on a control key (ctrl-x)",
        "line 5: expected `action = key [key…]`",
      ])
    #expect(map.keys[.withdraw] == [])
    #expect(map.action(for: .char("d")) == .drain)
    #expect(map.action(for: .char("x")) == .discard)
  }

  @Test func configTurnsConfirmationsOff() {
    let (config, problems) = UIConfig.read(
      """
      confirm-withdraw = no
      confirm-discard = yes
      theme = light
      ascii = maybe
      colour = blue
      """)
    #expect(!config.confirmWithdraw && config.confirmDiscard && config.theme == "light" && !config.ascii)
    #expect(
      problems.map(\.description) == ["line 4: ascii takes yes or no, not 'maybe'", "line 5: unknown setting 'colour'"])
  }
}
