import Foundation
import TestSupport
import Testing

@testable import VerdictsUI

/// The `--log` file never stops the program: a line that cannot be written is dropped and the
/// failure is told once.
@Suite struct AppLogTests {
  /// (A line that cannot be written, on a full disk: `DiskFaultBinaryTests`, on a full tmpfs.)
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
  func aLogThatIsADeviceIsNeverOpenedAndSaysSoExactlyOnce() {
    let log = AppLog(path: "/dev/full")
    let told = SharedValue<[String]>([])
    log.onFailure = { text in told.update { $0.append(text) } }
    for i in 0..<50 { log.log("line \(i)") }
    #expect(told.value.count == 1, "\(told.value)")
    #expect(told.value.first?.contains("is a device: only a regular file is taken") == true, "\(told.value)")
  }

  @Test func aLogThatIsASymbolicLinkIsNeverWrittenThrough() throws {
    let folder = FileManager.default.temporaryDirectory.path + "/verdicts-log-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "victim\n".write(toFile: folder + "/victim", atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/victim")
    let log = AppLog(path: folder + "/link")
    log.log("a line")
    #expect(log.failureText?.contains("is a symbolic link, which is not followed") == true)
    #expect(try String(contentsOfFile: folder + "/victim", encoding: .utf8) == "victim\n")
  }

  @Test func aFailureBeforeTheListenerIsSetIsToldWhenItIsSet() {
    let log = AppLog(path: "/nonexistent-folder-for-tests/verdicts.log")
    let told = SharedValue<[String]>([])
    log.log("before")
    log.onFailure = { text in told.update { $0.append(text) } }
    log.log("after")
    #expect(told.value.count == 1, "\(told.value)")
    #expect(told.value.first?.contains("cannot be opened") == true, "\(told.value)")
  }

  @Test func outsideAUTF8LocaleTheLogIsASCIIWithControlsMadeVisible() throws {
    let path = FileManager.default.temporaryDirectory.path + "/verdicts-log-\(UUID().uuidString).log"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let log = AppLog(path: path, ascii: true)
    log.log("gateway said \u{1B}[2J\u{9B}31m \u{202E}txt é")
    let bytes = try #require(FileManager.default.contents(atPath: path))
    #expect(bytes.allSatisfy { $0 < 0x80 }, "\(String(decoding: bytes, as: UTF8.self))")
    #expect(String(decoding: bytes, as: UTF8.self).contains("\\u{001b}[2J\\u{009b}31m \\u{202e}txt \\u{00e9}"))
  }
}
