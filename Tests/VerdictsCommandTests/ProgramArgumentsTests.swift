import Foundation
import TestSupport
import Testing

@testable import VerdictsCommand

/// The program's arguments when the runtime holds none: read from `/proc/self/cmdline`, then from
/// the stack; none anywhere is a refusal, never an empty command line (which opens the TUI).
@Suite struct ProgramArgumentsTests {
  static func bytes(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }

  @Test func theRuntimesArgumentsComeFirstWithoutTheProgramsName() {
    let got = ProcessStart.arguments(
      runtime: Self.bytes(["verdicts", "--version"]), cmdline: { Array("x\0--json\0".utf8) }, stack: { nil })
    #expect(got == Self.bytes(["--version"]))
  }

  @Test func withNoneFromTheRuntimeTheCommandLineFileIsRead() {
    let got = ProcessStart.arguments(runtime: nil, cmdline: { Array("verdicts\0--version\0".utf8) }, stack: { nil })
    #expect(got == Self.bytes(["--version"]))
    let empty = ProcessStart.arguments(runtime: [], cmdline: { Array("v\0\0--store\0s\0".utf8) }, stack: { nil })
    #expect(empty == Self.bytes(["", "--store", "s"]), "an empty argument is kept")
  }

  @Test func withoutTheFileTheStackIsRead() {
    let got = ProcessStart.arguments(runtime: nil, cmdline: { nil }, stack: { Self.bytes(["verdicts", "status"]) })
    #expect(got == Self.bytes(["status"]))
  }

  @Test func noArgumentsAnywhereIsNilNeverAnEmptyCommandLine() {
    #expect(ProcessStart.arguments(runtime: nil, cmdline: { nil }, stack: { nil }) == nil)
    #expect(ProcessStart.arguments(runtime: [], cmdline: { [] }, stack: { [] }) == nil)
  }

  @Test func theFileOfThisProcessHoldsItsName() throws {
    let bytes = try #require(ProcessStart.readCommandLine())
    #expect(bytes.last == 0)
    #expect(!bytes.isEmpty)
  }

  static let faketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"

  /// libfaketime preloaded, in a terminal: the program saw no arguments and opened the TUI on
  /// the default store for `--version` ("no store at …/queue.store").
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: faketime)
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
      "needs libfaketime (apt: libfaketime) and script (bsdutils)"),
    .disabled(if: SanitizerRun.active, "libfaketime in a sanitized binary: it hangs at its start"))
  func underAPreloadedLibraryTheArgumentsAreStillTheOnesGiven() async throws {
    let t = TempFolder()
    let binary = try Binary.require()
    for line in ["--version", "--json --version"] {
      let run = try await offPool {
        try ChildProcess.run(
          "/usr/bin/script", ["-qec", "LD_PRELOAD=\(Self.faketime) FAKETIME=+365d '\(binary)' \(line)", "/dev/null"],
          environment: [
            "HOME": t.path, "TERM": "xterm", "LANG": "C.UTF-8",
            "PATH": "/usr/bin:/bin",
          ])
      }
      #expect(run.output.contains("0.1.0"), "\(line): \(run.output) \(run.errors)")
      #expect(!run.output.contains("no store"), "\(line) opened the TUI: \(run.output)")
      #expect(run.status == 0, "\(line): \(run.status) \(run.output)")
    }
    #expect(!t.exists(t.file(".local/state/verdicts/queue.store")), "the default store was made")
  }
}
