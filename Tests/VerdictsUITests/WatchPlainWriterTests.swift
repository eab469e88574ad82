import Foundation
import MarfaQueue
import TestSupport
import Testing

@testable import VerdictsUI

#if canImport(Glibc)
  import Glibc
#endif

/// `watch --plain` prints a line when a writer comes, changes what it does, and goes.
@Suite struct WatchPlainWriterTests {
  @Test func aLineWhenTheWriterIsThereAndAnotherWhenItClosesButNoneWhileNothingChanges() async throws {
    let folder = TempFolder()
    defer { _ = folder }
    let url = folder.storeURL
    let writer = try await WorkingCopy.open(store: url, server: nil)
    await writer.describeWriter(program: "verdicts", mode: "tui")
    let reader = try await WorkingCopy.openReader(store: url)
    defer { reader.close() }
    let source = CountingSource(copy: reader, followsWriter: true)
    let lines = LineSink()
    let watcher = Task { await VerdictsApp.watchPlain(source: source, emit: { lines.add($0) }, clock: { "T" }) }
    defer { watcher.cancel() }
    await lines.wait(forCount: 1)
    #expect(lines.all == ["T writer: verdicts tui (pid \(getpid())) · auto-drain off"])
    // Nothing changes for two checks of the writer: nothing is printed. Once the third check has
    // begun, the two before it have printed whatever they would.
    let checks = source.writerChecks.value
    #expect(await eventually(within: .seconds(20)) { source.writerChecks.value >= checks + 3 })
    #expect(lines.all.count == 1)
    writer.close()
    await lines.wait(forCount: 2, patience: .seconds(5))
    let last = try #require(lines.all.last)
    #expect(last.hasPrefix("T writer: none since "), "\(lines.all)")
  }
}

@Suite struct WatchPlainStoreFileTests {
  @Test func aStoreDeletedUnderWatchPlainIsSaidWithinTwoSeconds() async throws {
    let folder = TempFolder()
    defer { _ = folder }
    let url = folder.storeURL
    try await WorkingCopy.open(store: url, server: nil).close()
    let reader = try await WorkingCopy.openReader(store: url)
    defer { reader.close() }
    let source = CountingSource(copy: reader, followsWriter: true)
    let lines = LineSink()
    let watcher = Task { await VerdictsApp.watchPlain(source: source, emit: { lines.add($0) }, clock: { "T" }) }
    defer { watcher.cancel() }
    // The watcher's first look is over (and printed what it would) once its second has begun.
    #expect(await eventually(within: .seconds(20)) { source.writerChecks.value >= 2 })
    let before = lines.all.count
    try FileManager.default.removeItem(at: url)
    let removed = Date()
    await lines.wait(forCount: before + 1, patience: .seconds(3))
    #expect(Date().timeIntervalSince(removed) < 2)
    #expect(lines.all.last?.hasPrefix("T store removed at ") == true, "\(lines.all)")
  }
}

@Suite struct WatchPlainJSONTests {
  @Test func everyJSONLineParsesAndNamesItsEvent() async throws {
    let folder = TempFolder()
    defer { _ = folder }
    let url = folder.storeURL
    let writer = try await WorkingCopy.open(store: url, server: nil)
    await writer.describeWriter(program: "verdicts", mode: "tui")
    let first = try await writer.createItem(type: "note", properties: .object([]))
    let reader = try await WorkingCopy.openReader(store: url)
    defer { reader.close() }
    let lines = LineSink()
    let watcher = Task {
      await VerdictsApp.watchPlain(source: reader, emit: { lines.add($0) }, clock: { "T" }, json: true)
    }
    defer { watcher.cancel() }
    await lines.wait(forCount: 2)
    let second = try await writer.createItem(type: "note", properties: .object([]))
    await lines.wait(forCount: 3)
    writer.close()
    await lines.wait(forCount: 4, patience: .seconds(5))
    let parsed = lines.all.map { JSONValue.parse($0) }
    #expect(parsed.allSatisfy { $0 != nil }, "\(lines.all)")
    let events = parsed.compactMap { $0?["event"]?.stringValue }
    #expect(events.filter { $0 == "queued" }.count == 2, "\(lines.all)")
    #expect(events.filter { $0 == "writer" }.count == 2, "\(lines.all)")
    let queuedIds = parsed.filter { $0?["event"] == .string("queued") }.compactMap { $0?["id"]?.stringValue }
    #expect(Set(queuedIds) == [first.id, second.id])
    let writers = parsed.filter { $0?["event"] == .string("writer") }.compactMap {
      $0?["writer"]?["state"]?.stringValue
    }
    #expect(writers == ["live", "closed"])
    #expect(parsed.allSatisfy { $0?["time"] == .string("T") })
  }
}

extension WatchPlainJSONTests {
  @Test func aWriteThatLeftIsNamedByWhyItLeftAndForgottenWhereTheStoreDoesNotSay() {
    for departure in Departure.allCases {
      let line = PlainJSON.gone("w1", departure: departure, time: "T", ascii: false)
      #expect(JSONValue.parse(line)?["event"] == .string(departure.rawValue))
    }
    #expect(JSONValue.parse(PlainJSON.gone("w1", time: "T", ascii: false))?["event"] == .string("forgotten"))
  }
}
