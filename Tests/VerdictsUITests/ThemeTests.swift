import Foundation
import Testing

@testable import VerdictsUI

@Suite struct ThemeTests {
  static let themesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Themes")

  @Test func colourNamesIndexesAndHex() {
    #expect(ThemeColor(parsing: "default") == .terminalDefault)
    #expect(ThemeColor(parsing: "red") == .indexed(1))
    #expect(ThemeColor(parsing: "bright-red") == .indexed(9))
    #expect(ThemeColor(parsing: "Bright-White") == .indexed(15))
    #expect(ThemeColor(parsing: "grey") == .indexed(8))
    #expect(ThemeColor(parsing: "0") == .indexed(0))
    #expect(ThemeColor(parsing: "255") == .indexed(255))
    #expect(ThemeColor(parsing: "#0072B2") == .rgb(0, 0x72, 0xB2))
    for bad in ["256", "-1", "#12345", "#gggggg", "bright-pink", "purple", ""] {
      #expect(ThemeColor(parsing: bad) == nil, "\(bad)")
    }
  }

  @Test func coloursMapDownTo256And16And8() {
    let red = ThemeColor.rgb(255, 0, 0)
    #expect(red.index(for: .colors256) == 196)
    #expect(red.index(for: .colors16) == 9)
    #expect(red.index(for: .colors8) == 1)
    #expect(ThemeColor.rgb(0x80, 0x80, 0x80).index(for: .colors256) == 244)
    #expect(ThemeColor.rgb(0x00, 0x72, 0xB2).index(for: .colors256) == 25)
    // Nearest by weighted RGB distance: xterm's blue (0,0,238) is further than its cyan.
    #expect(ThemeColor.rgb(0x00, 0x72, 0xB2).index(for: .colors16) == 6)
    #expect(ThemeColor.indexed(196).index(for: .colors256) == 196)
    #expect(ThemeColor.indexed(196).index(for: .colors16) == 9)
    #expect(ThemeColor.indexed(196).index(for: .colors8) == 1)
    #expect(ThemeColor.indexed(9).index(for: .colors8) == 1)
    #expect(ThemeColor.indexed(244).index(for: .colors16) == 8)
    #expect(ThemeColor.indexed(244).index(for: .colors8) == 7)
    #expect(ThemeColor.rgb(0x30, 0x30, 0x30).index(for: .colors8) == 0)
    #expect(ThemeColor.rgb(0xF0, 0xF0, 0xF0).index(for: .colors16) == 15)
    #expect(ThemeColor.indexed(231).index(for: .colors8) == 7)
    #expect(ThemeColor.terminalDefault.index(for: .colors256) == nil)
    #expect(red.index(for: .none) == nil)
    #expect(ColorDepth(colorCount: 256) == .colors256)
    #expect(ColorDepth(colorCount: 88) == .colors16)
    #expect(ColorDepth(colorCount: 8) == .colors8)
    #expect(ColorDepth(colorCount: 0) == .none)
  }

  @Test func readerReportsUnknownRolesAndBadValuesByLine() {
    let text = """
      # a theme
      waiting = yellow default bold

      nonsense = red
      refused = crimson default
      blocked = red blue sparkly
      dead
      selected = red #zzzzzz
      waiting = green  # a comment after the value
      border =
      """
    let read = ThemeReader.read(name: "t", text: text)
    #expect(
      read.problems.map(\.description) == [
        "line 4: unknown role 'nonsense'",
        "line 5: bad colour 'crimson' (default, a name, 0-255 or #rrggbb)",
        "line 6: bad attribute 'sparkly' (bold, dim, underline, reverse)",
        "line 7: expected `role = FG BG [attributes]`",
        "line 8: bad colour '#zzzzzz' (default, a name, 0-255 or #rrggbb)",
        "line 9: role 'waiting' set again (first on line 2); this line wins",
        "line 10: a role needs a foreground colour",
      ])
    #expect(read.theme.styles[.waiting] == ThemeStyle(foreground: .indexed(2)))
    #expect(read.theme.styles[.blocked] == nil)
  }

  @Test func backgroundMayBeLeftOutAndMissingRolesFallBackToDefault() {
    let read = ThemeReader.read(name: "mine", text: "waiting = #ff8800 bold\n")
    #expect(read.problems.isEmpty)
    #expect(read.theme.style(.waiting) == ThemeStyle(foreground: .rgb(255, 0x88, 0), attributes: .bold))
    #expect(read.theme.style(.dead) == Theme.builtinDefault.style(.dead))
    #expect(read.theme.resolved(.waiting, depth: .colors256).text == "fg=208 bg=default bold")
  }

  @Test func everyBuiltinThemeReadsCleanAndSetsEveryRole() {
    #expect(BuiltinThemes.names == ["default", "light", "mono", "high-contrast", "colorblind", "solarized"])
    for name in BuiltinThemes.names {
      let read = ThemeReader.read(name: name, text: BuiltinThemes.text(of: name)!)
      #expect(read.problems.isEmpty, "\(name): \(read.problems)")
      let missing = Role.allCases.filter { read.theme.styles[$0] == nil }
      #expect(missing.isEmpty, "\(name) lacks \(missing)")
    }
  }

  @Test func themeFilesAreIdenticalToTheEmbeddedTexts() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.themesDirectory.path)
      .filter { $0.hasSuffix(".theme") }.sorted()
    #expect(files == BuiltinThemes.names.map { $0 + ".theme" }.sorted())
    for name in BuiltinThemes.names {
      let file = try String(contentsOf: Self.themesDirectory.appendingPathComponent(name + ".theme"), encoding: .utf8)
      #expect(
        file == BuiltinThemes.text(of: name), "Themes/\(name).theme differs from BuiltinThemes.swift: copy it there")
    }
  }

  @Test func monoHasNoColourAndTellsVerdictsApartByAttributes() {
    let mono = Theme.builtin("mono")!
    for role in Role.allCases {
      #expect(mono.style(role).foreground == .terminalDefault && mono.style(role).background == .terminalDefault)
    }
    #expect(mono.style(.selected).attributes.contains(.reverse))
  }

  @Test func choiceFlagBeatsEnvironmentBeatsConfig() {
    let env = ["VERDICTS_THEME": "light"]
    #expect(
      ThemeChoice.choose(flag: "solarized", environment: env, config: "mono", noColor: false).theme.name == "solarized")
    #expect(ThemeChoice.choose(flag: nil, environment: env, config: "mono", noColor: false).theme.name == "light")
    #expect(ThemeChoice.choose(flag: nil, environment: [:], config: "mono", noColor: false).theme.name == "mono")
    #expect(ThemeChoice.choose(flag: nil, environment: [:], config: nil, noColor: false).theme.name == "default")
  }

  @Test func noColorMeansMono() {
    let a = ThemeChoice.choose(flag: "light", environment: ["NO_COLOR": "1"], config: nil, noColor: false)
    #expect(a.theme.name == "mono" && a.colorOff)
    let b = ThemeChoice.choose(flag: "light", environment: [:], config: nil, noColor: true)
    #expect(b.theme.name == "mono" && b.colorOff)
    let c = ThemeChoice.choose(flag: nil, environment: ["NO_COLOR": ""], config: nil, noColor: false)
    #expect(c.theme.name == "default" && !c.colorOff)
  }

  @Test func themeFromAFileOrTheConfigDirectoryAndUnknownNames() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("verdicts-theme-\(getpid())")
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("themes"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("themes/ocean.theme")
    try "waiting = 33\nbogus = red\n".write(to: file, atomically: true, encoding: .utf8)
    let byPath = ThemeChoice.load(file.path)
    #expect(byPath.0.name == "ocean" && byPath.0.style(.waiting).foreground == .indexed(33))
    #expect(byPath.1 == ["theme \(file.path) line 2: unknown role 'bogus'"])
    let byName = ThemeChoice.load("ocean", configDirectory: dir.path)
    #expect(byName.0.name == "ocean")
    let unknown = ThemeChoice.load("nope")
    #expect(unknown.0.name == "default")
    #expect(unknown.1.first?.hasPrefix("no theme 'nope'") == true)
  }
}
