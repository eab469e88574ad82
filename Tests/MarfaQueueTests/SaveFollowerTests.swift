import Foundation
import MarfaWire
import TestSupport
import Testing

@testable import MarfaQueue

/// The one loop that follows another process's saves (``SaveFollower``), on a real store file
/// watched by real inotify: a commit is told once, nothing changed tells nothing, the waits are
/// the rule passed in, and cancelling ends it.
@Suite struct SaveFollowerTests {
  /// A store file in WAL mode with one table, and a reader's connection to it.
  final class File: @unchecked Sendable {  // unchecked: TestStore holds only its folder's URL
    let store = TestStore()
    private let reader: Mutex<SQLite>

    init() throws {
      #expect(store.execute("PRAGMA journal_mode=WAL; CREATE TABLE t(x)"))
      reader = Mutex(try SQLite(path: store.url.path, readOnly: true))
      // The first read opens the WAL's files: done before any follower watches them.
      #expect(dataVersion() != nil)
    }

    /// The reader's `data_version`; nil when it cannot be read.
    func dataVersion() -> Int? { try? reader.withLock { try $0.dataVersion() } }

    /// Commits one row from another connection.
    func save() { #expect(store.execute("INSERT INTO t VALUES (1)")) }
  }

  /// What the follower did: the marks it told, its looks, its calls of the rule, its file events.
  final class Record: Sendable {
    let told = Mutex<[Int]>([])
    let looks = Mutex(0)
    /// When each look was made.
    let lookTimes = Mutex<[ContinuousClock.Instant]>([])
    let files = Mutex(0)
    /// Each `next` call of the rule: the wait it was given and whether inotify watched.
    let nexts = Mutex<[(after: Int, inotify: Bool)]>([])
  }

  /// Runs a follower of `file` with `pace` (the rule's calls recorded) on a task of its own.
  static func follow(
    _ file: File, pace: SavePace, watch: Bool = true, watchedBy given: SaveWatch? = nil, _ record: Record
  ) -> Task<Void, Never> {
    let follower = SaveFollower(
      watch: given ?? (watch ? SaveWatch(storePath: file.store.url.path) : nil),
      pace: SavePace(
        afterSave: pace.afterSave,
        next: { ms, inotify in
          record.nexts.withLock { $0.append((ms, inotify)) }
          return pace.next(ms, inotify)
        }),
      start: file.dataVersion() ?? 0,
      poll: {
        record.looks.withLock { $0 += 1 }
        record.lookTimes.withLock { $0.append(.now) }
        return file.dataVersion().map { .seen($0) } ?? .unread
      },
      tell: { mark in record.told.withLock { $0.append(mark) } },
      heardFiles: { record.files.withLock { $0 += 1 } })
    return Task.detached { await follower.run() }
  }

  /// A rule whose looks, without a write heard, are a minute apart: only inotify hears in time.
  static let minute = SavePace(afterSave: { _ in 60_000 }, next: { _, _ in 60_000 })

  @Test func aCommitIsHeardFromInotifyAndToldOnce() async throws {
    let file = try File()
    let record = Record()
    let task = Self.follow(file, pace: Self.minute, record)
    defer { task.cancel() }
    // A fixed pause: the follower does not say when its inotify watch is in place.
    try await Task.sleep(for: .milliseconds(100))
    // Told within ``eventually``'s ten seconds: the rule's next look is a minute away.
    file.save()
    #expect(await eventually(every: .milliseconds(10)) { !record.told.withLock { $0 }.isEmpty })
    // A fixed pause: a second telling that does not come has no event to wait on.
    try await Task.sleep(for: .milliseconds(300))
    #expect(record.told.withLock { $0 } == [file.dataVersion() ?? -1])
  }

  @Test func aFileEventWithoutACommitIsHeardButTellsNothing() async throws {
    let file = try File()
    let record = Record()
    let task = Self.follow(file, pace: Self.minute, record)
    defer { task.cancel() }
    // A fixed pause: the follower does not say when its inotify watch is in place.
    try await Task.sleep(for: .milliseconds(100))
    // Another connection opens the store, reads and closes: its files are closed after writing
    // (the `-shm`), which inotify tells, and no commit came.
    #expect(file.store.execute("SELECT count(*) FROM t"))
    #expect(await eventually(every: .milliseconds(10)) { record.files.withLock { $0 } > 0 })
    #expect(await eventually(every: .milliseconds(10)) { record.looks.withLock { $0 } > 0 })
    // A fixed pause: a telling that does not come has no event to wait on.
    try await Task.sleep(for: .milliseconds(200))
    #expect(record.told.withLock { $0 }.isEmpty)
  }

  /// A file beside the store appended to thousands of times (a log in the store's folder) wakes
  /// no look of the store: its events are dropped by name in the watch, which rests between
  /// them; a save of the store's own in the middle of it is still told.
  @Test func aBusyNeighbourFileWakesNoLookAndASaveAmongItsWritesIsStillTold() async throws {
    let file = try File()
    let record = Record()
    let watch = try #require(SaveWatch(storePath: file.store.url.path))
    let task = Self.follow(file, pace: Self.minute, watchedBy: watch, record)
    defer { task.cancel() }
    try await Task.sleep(for: .milliseconds(100))
    let looksBefore = record.looks.withLock { $0 }
    let neighbour = file.store.url.deletingLastPathComponent().path + "/neighbour.log"
    let busy = Task.detached {
      let fd = open(neighbour, O_WRONLY | O_APPEND | O_CREAT, 0o600)
      defer { close(fd) }
      var line: [UInt8] = Array("a line of a busy log\n".utf8)
      for _ in 0..<3_000 {
        _ = write(fd, &line, line.count)
        usleep(200)
      }
    }
    await busy.value
    let looks = record.looks.withLock { $0 } - looksBefore
    #expect(looks == 0, "\(looks) looks of the store for a neighbour's 3,000 writes")
    let wakeups = watch.foreignWakeups.withLock { $0 }
    #expect(wakeups < 120, "\(wakeups) wakeups for a neighbour's 3,000 writes")
    // A save while the neighbour goes on being written is told.
    let more = Task.detached {
      let fd = open(neighbour, O_WRONLY | O_APPEND)
      defer { close(fd) }
      var line: [UInt8] = Array("more\n".utf8)
      for _ in 0..<2_000 {
        _ = write(fd, &line, line.count)
        usleep(200)
      }
    }
    file.save()
    #expect(await eventually(every: .milliseconds(10)) { record.told.withLock { $0.last } == file.dataVersion() })
    await more.value
  }

  /// While saves stream, the writer's writes make no inotify event for this reader (each would
  /// be the writer's work, in its own `write()` call): the watch's mask, as the kernel reports
  /// it, loses `IN_MODIFY` until a poll finds nothing new, and every save is still told.
  @Test func whileSavesStreamTheWritesAreNotHeardAndOnceTheyStopTheyAreAgain() async throws {
    let file = try File()
    let record = Record()
    let watch = try #require(SaveWatch(storePath: file.store.url.path))
    #expect(try Self.hearsWrites(watch))
    let task = Self.follow(file, pace: Self.minute, watchedBy: watch, record)
    defer { task.cancel() }
    // A fixed pause: the follower does not say when its wait is under way.
    try await Task.sleep(for: .milliseconds(100))
    let streaming = Task.detached {
      for _ in 0..<60 {
        file.save()
        try? await Task.sleep(for: .milliseconds(20))
      }
    }
    #expect(await eventually(every: .milliseconds(5)) { (try? Self.hearsWrites(watch)) == false })
    await streaming.value
    // Every save told (the last the store's mark), in order; and writes heard again.
    #expect(await eventually(every: .milliseconds(10)) { record.told.withLock { $0.last } == file.dataVersion() })
    let told = record.told.withLock { $0 }
    #expect(told == told.sorted() && Set(told).count == told.count)
    #expect(await eventually(every: .milliseconds(10)) { (try? Self.hearsWrites(watch)) == true })
    // A save after quiet is heard from inotify: the rule's next look is a minute away.
    let before = told.count
    file.save()
    #expect(await eventually(every: .milliseconds(10)) { record.told.withLock { $0.count } == before + 1 })
  }

  @Test func theWaitWhileSavesStreamIsDrawnFromTheGapToHalfAgain() {
    #expect(SaveFollower<Int>.streamWaitMs(0) == 100)
    #expect(SaveFollower<Int>.streamWaitMs(0.5) == 125)
    #expect(SaveFollower<Int>.streamWaitMs(1) == 150)
    #expect(SaveFollower<Int>.streamWaitMs(-3) == 100 && SaveFollower<Int>.streamWaitMs(7) == 150)
  }

  /// Readers that heard the same save go on polling out of step: the gaps between one follower's
  /// looks while saves stream are drawn anew each time (100–150 ms), not one gap repeated.
  @Test func whileSavesStreamTheGapsBetweenLooksVary() async throws {
    let file = try File()
    let record = Record()
    let task = Self.follow(file, pace: Self.minute, record)
    defer { task.cancel() }
    // A fixed pause: the follower does not say when its inotify watch is in place.
    try await Task.sleep(for: .milliseconds(100))
    // One writer's connection, kept open as a drain keeps its own: no file is closed between
    // its commits, so only the follower's own waits pace its looks.
    let writer = Mutex(try SQLite(path: file.store.url.path, readOnly: false))
    let start = ContinuousClock.now
    let streaming = Task.detached {
      for _ in 0..<150 {
        #expect((try? writer.withLock { try $0.execute("INSERT INTO t VALUES (1)") }) != nil)
        try? await Task.sleep(for: .milliseconds(20))
      }
    }
    await streaming.value
    let end = ContinuousClock.now
    // The looks while saves streamed, the first second's left out (hearing the first save).
    let times = record.lookTimes.withLock { $0 }.filter { $0 > start + .seconds(1) && $0 < end }
    let all = zip(times.dropFirst(), times).map { Int(($0 - $1) / .milliseconds(1)) }
    // The gaps of the stream's polls: a look that found nothing new (the writer late on a loaded
    // machine) is followed by one at once, as the stream's end is, and a wait past 400 ms is the load's.
    let gaps = all.filter { (95...400).contains($0) }
    #expect(gaps.count >= 5, "\(all)")
    #expect((gaps.max() ?? 0) - (gaps.min() ?? 0) >= 15, "\(all)")
  }

  /// Whether the watch's mask, as `/proc/self/fdinfo` gives it, holds `IN_MODIFY`.
  static func hearsWrites(_ watch: SaveWatch) throws -> Bool {
    let info = try String(contentsOfFile: "/proc/self/fdinfo/\(watch.fd)", encoding: .utf8)
    let line = try #require(info.split(separator: "\n").first { $0.hasPrefix("inotify wd:") })
    let mask = try #require(line.split(separator: " ").first { $0.hasPrefix("mask:") }?.dropFirst(5))
    let bits = try #require(UInt32(mask, radix: 16))
    return bits & 0x2 != 0
  }

  @Test func theWaitsWhileNothingChangesAreTheRulePassedIn() async throws {
    let file = try File()
    let record = Record()
    let pace = SavePace(afterSave: { _ in 20 }, next: { ms, _ in ms + 10 })
    let task = Self.follow(file, pace: pace, record)
    #expect(await eventually(every: .milliseconds(10)) { record.nexts.withLock { $0.count } >= 5 })
    task.cancel()
    await task.value
    let nexts = record.nexts.withLock { $0 }
    // Each look after the wait the rule gave after the look before.
    #expect(nexts.map(\.after) == Array(stride(from: 20, to: 20 + 10 * nexts.count, by: 10)))
    #expect(nexts.allSatisfy { $0.inotify })
    #expect(record.told.withLock { $0 }.isEmpty)
  }

  @Test func withoutInotifyTheTimerLooksByTheRuleAndTellsTheFileListeners() async throws {
    let file = try File()
    let record = Record()
    let pace = SavePace(afterSave: { _ in 10 }, next: { _, _ in 10 })
    let task = Self.follow(file, pace: pace, watch: false, record)
    defer { task.cancel() }
    #expect(await eventually(every: .milliseconds(10)) { record.files.withLock { $0 } >= 3 })
    #expect(record.nexts.withLock { $0 }.allSatisfy { !$0.inotify })
    file.save()
    #expect(await eventually(every: .milliseconds(10)) { record.told.withLock { $0 } == [file.dataVersion() ?? -1] })
  }

  @Test func aWatchLostWithItsFolderMovedFallsBackToTheRulesTimer() async throws {
    let file = try File()
    let record = Record()
    let pace = SavePace(afterSave: { _ in 60_000 }, next: { ms, inotify in inotify ? 60_000 : ms * 2 })
    let task = Self.follow(file, pace: pace, record)
    defer { task.cancel() }
    // A fixed pause: the follower does not say when its inotify watch is in place.
    try await Task.sleep(for: .milliseconds(100))
    // A folder moved tells inotify at once (one deleted does only once its files are closed).
    let moved = file.store.folder.appendingPathExtension("moved")
    try FileManager.default.moveItem(at: file.store.folder, to: moved)
    defer { try? FileManager.default.removeItem(at: moved) }
    // The timer takes over from the 25 ms after the event and backs off by the rule: not stuck
    // on quick looks, and never told of a save that did not happen.
    #expect(await eventually(every: .milliseconds(10)) { record.nexts.withLock { $0 }.count { !$0.inotify } >= 3 })
    #expect(record.nexts.withLock { $0 }.filter { !$0.inotify }.prefix(3).map(\.after) == [25, 50, 100])
    #expect(record.told.withLock { $0 }.isEmpty)
  }

  @Test func eachStoreKindKeepsItsOwnBackOff() {
    func waits(_ pace: SavePace, inotify: Bool, from ms: Int, _ n: Int) -> [Int] {
      var ms = ms
      return (0..<n).map { _ in
        ms = pace.next(ms, inotify)
        return ms
      }
    }
    // This project's store: 50 ms after a save, doubling to 1.6 s, then no timed look (-1).
    #expect(WorkingCopy.savePace.afterSave(true) == 50)
    #expect(waits(WorkingCopy.savePace, inotify: true, from: 50, 7) == [100, 200, 400, 800, 1_600, -1, -1])
    #expect(waits(WorkingCopy.savePace, inotify: false, from: 50, 3) == [100, 200, 200])
    // The core's store: once a second, from 25 ms after a write heard; 250 ms without inotify.
    #expect(CoreStore.changePace.afterSave(true) == 1_000)
    #expect(waits(CoreStore.changePace, inotify: true, from: 25, 7) == [50, 100, 200, 400, 800, 1_000, 1_000])
    #expect(CoreStore.changePace.afterSave(false) == 250)
    #expect(waits(CoreStore.changePace, inotify: false, from: 25, 2) == [250, 250])
  }

  @Test func cancellingEndsAWaitUnderWayAtOnce() async throws {
    for watch in [true, false] {
      let file = try File()
      let task = Self.follow(file, pace: Self.minute, watch: watch, Record())
      // A fixed pause: the follower does not say when its wait is under way.
      try await Task.sleep(for: .milliseconds(100))
      let cancelled = ContinuousClock.now
      task.cancel()
      await task.value
      // Well before the minute the wait was for (a loaded machine may take a moment).
      #expect(ContinuousClock.now - cancelled < .seconds(10))
    }
  }
}
