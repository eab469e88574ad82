import Foundation
import Testing

@testable import VerdictsUI

/// The `--log` file never stops the program: a line that cannot be written is dropped and the
/// failure is told once.
@Suite struct AppLogTests {
  final class Told: @unchecked Sendable {
    let lock = NSLock()
    var sentences: [String] = []
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
  func aLogOnDevFullDropsItsLinesAndSaysSoExactlyOnce() {
    let log = AppLog(path: "/dev/full")
    let told = Told()
    log.onFailure = { text in told.lock.withLock { told.sentences.append(text) } }
    for i in 0..<50 { log.log("line \(i)") }
    #expect(told.sentences.count == 1, "\(told.sentences)")
    #expect(told.sentences.first?.contains("cannot be written") == true, "\(told.sentences)")
  }

  @Test func aFailureBeforeTheListenerIsSetIsToldWhenItIsSet() {
    let log = AppLog(path: "/nonexistent-folder-for-tests/verdicts.log")
    let told = Told()
    log.log("before")
    log.onFailure = { text in told.lock.withLock { told.sentences.append(text) } }
    log.log("after")
    #expect(told.sentences.count == 1, "\(told.sentences)")
    #expect(told.sentences.first?.contains("cannot be opened") == true, "\(told.sentences)")
  }
}
