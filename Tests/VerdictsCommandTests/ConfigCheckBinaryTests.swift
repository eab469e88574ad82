import Foundation
import MarfaQueue
import TestSupport
import Testing

/// `verdicts config check` through the binary: every problem of the config, keys and theme files
/// with its file and line; exit 0 when clean, 2 with problems; `--json`; text made safe.
@Suite struct ConfigCheckBinaryTests {
  func folder(config: String?, keys: String?) throws -> TempFolder {
    let f = TempFolder()
    let dir = f.path + "/config/verdicts"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    if let config { try config.write(toFile: dir + "/config", atomically: true, encoding: .utf8) }
    if let keys { try keys.write(toFile: dir + "/keys.conf", atomically: true, encoding: .utf8) }
    return f
  }

  func check(_ f: TempFolder, _ extra: [String] = [], env: [String: String] = [:]) throws -> CommandResult {
    var environment = ["XDG_CONFIG_HOME": f.path + "/config"]
    environment.merge(env) { _, new in new }
    return try Binary.run(extra + ["config", "check"], store: nil, home: f.path, environment: environment)
  }

  @Test func everyProblemIsPrintedWithItsFileAndLineAndTheExitIs2() throws {
    let f = try folder(config: "clipboard = maybe\nfoo = 1\n", keys: "# keys\nbogus-action = x\nrelease =\n")
    let r = try check(f)
    #expect(r.code == 2, "\(r)")
    let dir = f.path + "/config/verdicts"
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("\(dir)/config:1: clipboard takes yes or no, not 'maybe'"), "\(r.stdout)")
    #expect(lines.contains("\(dir)/config:2: unknown setting 'foo'"))
    #expect(lines.contains("\(dir)/keys.conf:2: unknown action 'bogus-action'"))
    #expect(lines.contains { $0.hasPrefix("\(dir)/keys.conf:3: ") })
    #expect(lines.last?.hasPrefix("4 problems (") == true)
  }

  @Test func cleanFilesExit0() throws {
    let f = try folder(config: "clipboard = no\ntheme = mono\n", keys: "release = r\n")
    let r = try check(f)
    #expect(r.code == 0, "\(r)")
    #expect(r.stdout.hasPrefix("no problems ("), "\(r.stdout)")
    #expect(r.stdout.contains("theme mono"))
    let none = try check(try folder(config: nil, keys: nil))
    #expect(none.code == 0)
    #expect(none.stdout == "no problems (no config files; theme default)\n")
  }

  @Test func theThemeTheTUIWouldUseIsReadLineByLine() throws {
    let f = try folder(config: nil, keys: nil)
    let theme = f.path + "/odd.theme"
    try "header = red blue bold\nnot-a-role = red\nstatus = purple\n".write(
      toFile: theme, atomically: true, encoding: .utf8)
    let r = try check(f, ["--theme", theme])
    #expect(r.code == 2, "\(r)")
    #expect(r.stdout.contains("\(theme):2: "), "\(r.stdout)")
    #expect(r.stdout.contains("\(theme):3: "))
    let env = try check(f, env: ["VERDICTS_THEME": "nosuch"])
    #expect(env.stdout.hasPrefix("VERDICTS_THEME: no theme 'nosuch'"), "\(env.stdout)")
  }

  @Test func jsonCarriesEveryProblem() throws {
    let f = try folder(config: "foo = 1\n", keys: nil)
    let r = try check(f, ["--json"])
    #expect(r.code == 2)
    let json = try #require(r.json, "\(r)")
    #expect(json["clean"]?.boolValue == false)
    let problems = try #require(json["problems"]?.arrayValue)
    #expect(problems.count == 1)
    #expect(problems.first?["line"]?.intValue == 1)
    #expect(problems.first?["file"]?.stringValue == f.path + "/config/verdicts/config")
    #expect(problems.first?["message"]?.stringValue == "unknown setting 'foo'")
  }

  @Test func escapesInAFileNeverReachTheTerminalRaw() throws {
    let f = try folder(config: "\u{1B}[31mfoo = 1\n", keys: nil)
    let r = try check(f)
    #expect(r.code == 2)
    #expect(!r.stdout.contains("\u{1B}"), "\(r.stdout)")
  }
}
