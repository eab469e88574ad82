import Foundation
import ScriptedInstance
import TestSupport
import Testing

@testable import MarfaQueue

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct WriterRecordTests {
  @Test("a watcher reading over and over while a writer closes never reads the clean close as gone")
  func aCleanCloseIsNeverReadAsAWriterThatDied() async throws {
    for _ in 0..<40 {
      let t = TestStore()
      let writer = try await t.open(server: nil)
      await writer.describeWriter(program: "verdicts", mode: "tui")
      let reader = try await WorkingCopy.openReader(store: t.url)
      defer { reader.close() }
      let watching = Task {
        var states: [WriterRecord.State] = []
        for i in 0..<5_000 {
          let seen = i % 2 == 0 ? try? await reader.writer() : try? await reader.status().writer
          guard let state = seen?.state else { continue }
          states.append(state)
          if state != .live { break }
        }
        return states
      }
      try await Task.sleep(for: .milliseconds(3))
      writer.close()
      let states = await watching.value
      #expect(!states.contains(.gone), "\(states.suffix(3))")
      #expect(states.last == .closed)
    }
  }

  @Test func aWriterPublishesWhoItIsAndAReaderSeesItLiveWithoutTheKey() async throws {
    let t = TestStore()
    let writer = try await t.open(server: Server(url: "http://127.0.0.1:9", key: "secret-key-4711"))
    defer { writer.close() }
    await writer.describeWriter(program: "verdicts", mode: "tui")
    let reader = try await WorkingCopy.openReader(store: t.url)
    defer { reader.close() }
    let seen = try #require(try await reader.writer())
    #expect(seen.state == .live)
    #expect(seen.program == "verdicts")
    #expect(seen.mode == "tui")
    #expect(seen.pid == getpid())
    #expect(!seen.host.isEmpty)
    #expect(seen.closedAt == nil)
    #expect(seen.drain == nil)
    // The status carries it too, and the writer sees itself the same way.
    #expect(try await reader.status().writer?.state == .live)
    #expect(try await writer.writer()?.mode == "tui")
    let stored = try await reader.store.run { try $0.meta(.writer) } ?? ""
    #expect(!stored.contains("secret-key-4711"))
  }

  @Test func aReaderOpenedBesideTheWriterInTheSameProcessDoesNotMakeItLookDead() async throws {
    let t = TestStore()
    let writer = try await t.open()
    defer { writer.close() }
    // A second open asks for the role, opens the lock file and closes it again.
    let second = try await t.open()
    #expect(!second.handle.isWriter)
    second.close()
    #expect(try await writer.writer()?.state == .live)
  }

  @Test func aCleanCloseLeavesTheRecordClosedWithItsTime() async throws {
    let t = TestStore()
    let writer = try await t.open()
    await writer.describeWriter(program: "verdicts", mode: "drain")
    let before = Date()
    writer.close()
    let reader = try await WorkingCopy.openReader(store: t.url)
    defer { reader.close() }
    let seen = try #require(try await reader.writer())
    #expect(seen.state == .closed)
    #expect(seen.mode == "drain")
    #expect(try #require(seen.closedAt).timeIntervalSince(before) > -1)
  }

  @Test func aRecordSayingOpenWithNobodyHoldingTheLockIsGone() async throws {
    let t = TestStore()
    let writer = try await t.open()
    writer.close()
    // What a writer killed mid-drain leaves: its record open, a drain under way, the lock free.
    let left = WriterRecord(
      program: "verdicts", mode: "tui", pid: 4211, host: "device",
      startedAt: Date(timeIntervalSince1970: 1_800_000_000),
      autoDrain: true, drain: .init(startedAt: Date(timeIntervalSince1970: 1_800_000_010), total: 300, sent: 154))
    let text = left.storedJSON.text.replacingOccurrences(of: "'", with: "''")
    #expect(t.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('writer', '\(text)')"))
    let reader = try await WorkingCopy.openReader(store: t.url)
    defer { reader.close() }
    let seen = try #require(try await reader.writer())
    #expect(seen.state == .gone)
    #expect(seen.pid == 4211)
    #expect(seen.drain?.sent == 154)
    #expect(seen.drain?.left == 146)
  }

  @Test func openingAndClosingAWriterThatDidNothingLeavesTheStoreAsItWas() async throws {
    let t = TestStore()
    try await t.open().close()
    let before = FileManager.default.contents(atPath: t.url.path)
    let writer = try await t.open()
    _ = try? await writer.queue.write("no-such-write")
    writer.close()
    #expect(FileManager.default.contents(atPath: t.url.path) == before)
  }

  @Test func aStoreNoWriterEverPublishedToHasNoWriter() async throws {
    let t = TestStore()
    let writer = try await t.open()
    writer.close()
    let reader = try await WorkingCopy.openReader(store: t.url)
    defer { reader.close() }
    #expect(try await reader.writer() == nil)
  }

  @Test func aDrainPublishesItsProgressWhileItRunsAndItsEndAfter() async throws {
    let h = try await DrainHarness()
    for i in 0..<40 { _ = try await h.note("n\(i)") }
    h.instance.writeDelay = 0.02
    let reader = try await WorkingCopy.openReader(store: h.store.url)
    defer { reader.close() }
    let drain = Task { try await h.copy.queue.drain() }
    var seenSent: [Int] = []
    try await eventually(within: .seconds(20)) {
      if let d = try await reader.writer()?.drain {
        #expect(d.total == 40)
        if seenSent.last != d.sent { seenSent.append(d.sent) }
      }
      if seenSent.last == 40 { return true }
      return (try await reader.writer())?.lastDrain != nil
    }
    let report = try await drain.value
    #expect(report.answered == 40)
    #expect(seenSent.count >= 2, "progress seen: \(seenSent)")
    #expect(seenSent == seenSent.sorted())
    let after = try #require(try await reader.writer())
    #expect(after.drain == nil)
    let last = try #require(after.lastDrain)
    #expect(last.sent == 40)
    #expect(last.answered == 40)
    #expect(last.verdicts["accepted"] == 40)
    #expect(last.endedAt != nil)
  }

  @Test func aPassThatAnswersQuicklyThenWaitsOnAStalledAnswerShowsHowFarItGot() async throws {
    // Six writes answered within the first quarter second, the seventh never answered: the
    // progress held back by the four-a-second bound is still written while the pass waits.
    let h = try await DrainHarness(rules: [.once(.write("w6"), .stall)], timeout: 6)
    for i in 0..<12 { _ = try await h.note("n\(i)", id: "w\(i)") }
    let reader = try await WorkingCopy.openReader(store: h.store.url)
    defer { reader.close() }
    let drain = Task { try await h.copy.queue.drain() }
    var sent = 0
    try await eventually(within: .seconds(5)) {
      sent = try await reader.writer()?.drain?.sent ?? sent
      return sent >= 6
    }
    #expect(sent == 6, "the record said \(sent) of 12 while the pass waited on the seventh")
    let report = try await drain.value
    #expect(report.answered == 6)
    let after = try #require(try await reader.writer())
    #expect(after.drain == nil, "a held progress written after the end would read as a drain under way")
  }

  @Test func autoDrainIsPublishedWhileUpdatesAreHeld() async throws {
    let h = try await DrainHarness()
    let reader = try await WorkingCopy.openReader(store: h.store.url)
    defer { reader.close() }
    let updates = Task { for await _ in h.copy.updates() {} }
    // Each wait at least as long as the hundred looks 20 ms apart it replaces.
    #expect(try await eventually(within: .seconds(5)) { try await reader.writer()?.autoDrain == true })
    updates.cancel()
    #expect(try await eventually(within: .seconds(5)) { try await reader.writer()?.autoDrain == false })
  }
}

@Suite struct StoreFileStateTests {
  @Test func aReaderTellsItsStoreRemovedThenReplacedFromTheFileItOpened() async throws {
    let t = TestStore()
    try await t.open().close()
    let reader = try await WorkingCopy.openReader(store: t.url)
    defer { reader.close() }
    #expect(reader.storeFileState() == .same)
    try FileManager.default.removeItem(at: t.url)
    #expect(reader.storeFileState() == .removed)
    #expect(FileManager.default.createFile(atPath: t.url.path, contents: Data("another".utf8)))
    #expect(reader.storeFileState() == .replaced)
  }
}
