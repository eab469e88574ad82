import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Through the built binary: no password in a URL, the key from a file or
/// standard input, a warning when it is on the command line.
@Suite(.serialized) struct SecretsTests {
  /// Runs `verdicts` with `input` on standard input.
  static func run(_ arguments: [String], input: String, environment: [String: String]) throws -> CommandResult {
    let run = try ChildProcess.run(
      try Binary.require(), arguments, environment: environment, input: Data(input.utf8))
    return CommandResult(code: run.status, stdout: run.output, stderr: run.errors)
  }

  @Test func aURLHoldingAUserAndPasswordIsRefusedExitTwoBeforeAnythingIsStored() async throws {
    let t = TempFolder()
    for url in ["http://alice:PW-secret@127.0.0.1:1/", "https://alice@example.test/", "http://:PW-secret@127.0.0.1:1/"]
    {
      for line in [["fill"], ["drain"], ["catch-up"]] {
        for json in [true, false] {
          let r = try await Binary.runOff(
            (json ? ["--json"] : []) + ["--url", url] + line, store: t.store, home: t.path)
          #expect(r.code == 2, "\(url) \(line): \(r)")
          #expect(r.stderr.contains("MARFA_API_KEY"), "\(r)")
          #expect(!r.stderr.contains("PW-secret") && !r.stdout.contains("PW-secret"), "the password was shown: \(r)")
        }
      }
      let env = Binary.environment(store: t.store, home: t.path, ["MARFA_API_URL": url])
      let viaEnv = try await offPool { () -> CommandResult in
        let p = try Spawned(["--json", "fill"], environment: env)
        _ = p.wait(timeout: 20)
        return p.result()
      }
      #expect(viaEnv.code == 2, "\(viaEnv)")
    }
    #expect(!t.exists(t.store), "a store was made for a refused URL")
  }

  @Test func theKeyIsReadFromAKeyFileOrFromStandardInputWithoutAWarning() async throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t"))
    instance.acceptedKeys = ["good-key"]
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    let keyFile = t.file("key")
    try "good-key\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
    let env = Binary.environment(store: t.store, home: t.path, ["MARFA_API_URL": url.absoluteString])

    let fromFile = try await Binary.runOff(
      ["--json", "--key-file", keyFile, "fill"], store: t.store, home: t.path,
      environment: ["MARFA_API_URL": url.absoluteString])
    #expect(fromFile.code == 0, "\(fromFile)")
    #expect(fromFile.stderr.isEmpty, "\(fromFile)")
    #expect(
      try await Binary.runOff(
        ["--json", "items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path
      ).code == 0)

    let wrong = try await offPool {
      try Self.run(["--json", "--key", "-", "drain"], input: "bad-key\n", environment: env)
    }
    #expect(wrong.code == 5, "\(wrong)")
    let fromInput = try await offPool {
      try Self.run(["--json", "--key", "-", "drain"], input: "good-key\n", environment: env)
    }
    #expect(fromInput.code == 0, "\(fromInput)")
    #expect(fromInput.json?["answered"] == .number(1), "\(fromInput)")
    #expect(fromInput.stderr.isEmpty, "\(fromInput)")
    // The key never reaches the store.
    let bytes = FileManager.default.contents(atPath: t.store) ?? Data()
    #expect(bytes.range(of: Data("good-key".utf8)) == nil)
  }

  @Test func aKeyFileThatCannotBeTakenIsAUsageErrorThatSaysWhy() async throws {
    let t = TempFolder()
    let empty = t.file("empty")
    FileManager.default.createFile(atPath: empty, contents: Data())
    let notUTF8 = t.file("bytes")
    FileManager.default.createFile(atPath: notUTF8, contents: Data([0xFF, 0xFE, 0x0A]))
    let cases = [
      (t.file("missing"), "No such file"), (empty, "no key"), (notUTF8, "not UTF-8"), ("/dev/zero", "character device"),
      (t.path, "folder"),
    ]
    for (path, says) in cases {
      let r = try await Binary.runOff(
        ["--json", "--url", "http://127.0.0.1:1/", "--key-file", path, "fill"], store: t.store, home: t.path,
        timeout: 20)
      #expect(r.code == 2, "\(path): \(r)")
      #expect(r.envelope?["error"]?["message"]?.stringValue?.contains(says) == true, "\(path): \(r)")
    }
    #expect(!t.exists(t.store))
  }

  @Test func aKeyOnTheCommandLineIsWarnedAboutOnceOnStandardError() async throws {
    let t = TempFolder()
    let r = try await Binary.runOff(["--key", "k1-visible", "status"], store: t.store, home: t.path)
    let warnings = r.stderr.components(separatedBy: "visible to every user").count - 1
    #expect(warnings == 1, "\(r)")
    #expect(!r.stderr.contains("k1-visible"), "\(r)")
    let json = try await Binary.runOff(["--json", "--key", "k1-visible", "status"], store: t.store, home: t.path)
    let lines = json.stderr.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
    #expect(lines.contains { $0["warning"]?["code"] == .string("key_on_command_line") }, "\(json)")
    let quiet = try await Binary.runOff(["status"], store: t.store, home: t.path, environment: ["MARFA_API_KEY": "k1"])
    #expect(!quiet.stderr.contains("visible to every user"), "\(quiet)")
  }

  @Test func theHelpSaysTheEnvironmentOrAKeyFileIsTheSafeWay() async throws {
    let t = TempFolder()
    let r = try await Binary.runOff(["--help"], store: t.store, home: t.path)
    #expect(r.stdout.contains("--key-file PATH"), "\(r)")
    #expect(r.stdout.contains("use MARFA_API_KEY or --key-file PATH"), "\(r)")
  }
}
