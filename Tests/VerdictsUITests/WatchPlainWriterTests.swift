import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

#if canImport(Glibc)
  import Glibc
#endif

/// `watch --plain` prints a line when a writer comes, changes what it does, and goes.
@Suite struct WatchPlainWriterTests {
  @Test func aLineWhenTheWriterIsThereAndAnotherWhenItClosesButNoneWhileNothingChanges() async throws {
    let url = try WorkingCopyTests.temporaryStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let writer = try await WorkingCopy.open(store: url, server: nil)
    await writer.describeWriter(program: "verdicts", mode: "tui")
    let reader = try await WorkingCopy.openReader(store: url)
    defer { reader.close() }
    let lines = LineSink()
    let watcher = Task { await VerdictsApp.watchPlain(source: reader, emit: { lines.add($0) }, clock: { "T" }) }
    defer { watcher.cancel() }
    await lines.wait(forCount: 1)
    #expect(lines.all == ["T writer: verdicts tui (pid \(getpid())) · auto-drain off"])
    // Nothing changes for two probes: nothing is printed.
    try await Task.sleep(for: .milliseconds(2_200))
    #expect(lines.all.count == 1)
    writer.close()
    await lines.wait(forCount: 2, patience: .seconds(5))
    let last = try #require(lines.all.last)
    #expect(last.hasPrefix("T writer: none since "), "\(lines.all)")
  }
}

@Suite struct WatchPlainStoreFileTests {
  @Test func aStoreDeletedUnderWatchPlainIsSaidWithinTwoSeconds() async throws {
    let url = try WorkingCopyTests.temporaryStore()
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    try await WorkingCopy.open(store: url, server: nil).close()
    let reader = try await WorkingCopy.openReader(store: url)
    defer { reader.close() }
    let lines = LineSink()
    let watcher = Task { await VerdictsApp.watchPlain(source: reader, emit: { lines.add($0) }, clock: { "T" }) }
    defer { watcher.cancel() }
    try await Task.sleep(for: .milliseconds(300))
    let before = lines.all.count
    try FileManager.default.removeItem(at: url)
    let removed = Date()
    await lines.wait(forCount: before + 1, patience: .seconds(3))
    #expect(Date().timeIntervalSince(removed) < 2)
    #expect(lines.all.last?.hasPrefix("T store removed at ") == true, "\(lines.all)")
  }
}
