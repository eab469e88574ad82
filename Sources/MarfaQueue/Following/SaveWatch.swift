import Dispatch
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Wakes a reader when another process touches the store: inotify on the store's folder, events
/// for the store's own files only (``ownNames``: `queue.store`, `-wal`, `-shm`, `-journal`,
/// `.lock`…). An event for any other file in the folder (a log appended to beside the store) is
/// read and dropped by name inside the wait, which goes on: it never wakes the reader, nor costs
/// it a poll of the store.
///
/// A writer's commit writes the WAL, so a reader polling `PRAGMA data_version` hears of it at
/// once. A writer that ends (cleanly or killed) closes the files it wrote, and a store deleted,
/// moved or replaced shows as a delete, move or create: those come as ``StoreFileEvents/files``,
/// so a watcher asks about the writer and the file only then, with no timer. A wait may be
/// endless (`timeoutMs` -1): ``stop()`` ends it. While saves stream, the reader stops hearing
/// writes and polls on a timer (``hearWrites(_:)``).
final class SaveWatch: Sendable {
  /// The inotify instance (tests read its watch's mask in `/proc/self/fdinfo`).
  let fd: Int32
  /// A pipe ``stop()`` writes to (the read end is polled), so an endless wait ends.
  private let stopFD: Int32
  private let stopWriteFD: Int32
  /// The store file's name, which each of its own files' names begins with (a quick refusal).
  private let prefix: [UInt8]
  /// The names of the store's own files, as inotify gives them (``ownNames(of:)``).
  private let names: Set<[UInt8]>
  /// Where events are read to: one buffer for the watch's life, used on ``queue`` only.
  private nonisolated(unsafe) let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
  /// The folder watched, and its watch's descriptor.
  private let folder: String
  private let wd: Int32
  private let queue = DispatchQueue(label: "verdicts.save-watch")

  /// How long after telling of a commit a reader polls again, at the soonest.
  ///
  /// A drain commits thousands of times a second and each commit writes the WAL: a reader woken
  /// by every one takes a thread hop and a store query each time and, on a machine with few
  /// cores, steals the drain's turns on a CPU (the drain is a request–answer ping-pong, so every
  /// delay is its delay). Resting 100 ms lets the events pile up in the kernel and be read in one
  /// go: at most ~10 polls a second while a writer commits, none when idle. A commit after quiet
  /// is still passed on at once. While commits stream, a screen under its byte budget draws about two
  /// frames a second, so news every 100 ms costs it nothing it shows; at 25 ms a watcher of a
  /// drain woke ~1,760 times a second (its threads' context switches), at 100 ms ~250.
  static let savedGap: Duration = .milliseconds(100)

  /// What is heard of the store's files when writes are not (``hearWrites(_:)``): a file made,
  /// deleted, moved, or closed after writing (a writer ending), and the folder itself going.
  static let filesMask = UInt32(
    IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
  /// ``filesMask`` and every write (a commit writes the `-wal`).
  static let writesMask = filesMask | UInt32(IN_MODIFY)

  /// Whether a write to the store's files wakes a wait (the watch starts hearing them); the other
  /// events are always heard. False when the folder's watch cannot be changed any more (it was
  /// removed, or another folder is at its path): the caller then polls on its timer.
  ///
  /// A reader following a stream of saves polls on a timer instead (``SaveFollower``): the kernel
  /// makes an event for every write, in the writer's own `write()` call, for every reader that
  /// hears them. Fifty readers hearing a drain's writes cost the drain a fifth of its CPU
  /// (fsnotify and its allocations in the drain's profile), and it went slower for it.
  func hearWrites(_ on: Bool) -> Bool {
    inotify_add_watch(fd, folder, on ? Self.writesMask : Self.filesMask) == wd
  }

  /// Waits until ``savedGap`` has passed since `passedOn` (when the reader last passed a commit on).
  static func rest(after passedOn: ContinuousClock.Instant?) async {
    guard let passedOn else { return }
    let since = ContinuousClock.now - passedOn
    if since < savedGap { try? await Task.sleep(for: savedGap - since) }
  }

  /// Watches the folder of `storePath`; nil where inotify is not to be had.
  init?(storePath: String) {
    let url = URL(fileURLWithPath: storePath)
    let folder = url.deletingLastPathComponent().path
    let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else { return nil }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      close(fd)
      return nil
    }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    let wd = inotify_add_watch(fd, folder, Self.writesMask)
    guard wd >= 0 else {
      close(fd)
      close(ends[0])
      close(ends[1])
      return nil
    }
    self.fd = fd
    self.wd = wd
    self.folder = folder
    self.stopFD = ends[0]
    self.stopWriteFD = ends[1]
    self.prefix = Array(url.lastPathComponent.utf8)
    self.names = Set(Self.ownNames(of: url.lastPathComponent).map { Array($0.utf8) })
  }

  /// The files of a store named `name` whose events concern its readers: the store, SQLite's
  /// log, index and journal, the writer's lock, a Marfa core's writer lock, the blob folder.
  static func ownNames(of name: String) -> [String] {
    [name] + StorePath.companionSuffixes.map { name + $0 } + [".lock", ".writer-lock", ".blobs"].map { name + $0 }
  }

  deinit {
    buffer.deallocate()
    close(fd)
    close(stopFD)
    close(stopWriteFD)
  }

  /// Ends every wait under way and every later one at once.
  func stop() {
    var one: UInt8 = 1
    _ = write(stopWriteFD, &one, 1)
  }

  /// Waits up to `timeoutMs` (-1: until something comes or ``stop()``) for an event on one of the
  /// store's files; empty when the time passed or the watch was stopped. Events for other files
  /// of the folder are dropped here and the wait goes on to its end.
  /// Blocks a thread of its own, never a task's.
  func wait(timeoutMs: Int) async -> StoreFileEvents {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: self.waitHere(timeoutMs: timeoutMs)) }
    }
  }

  /// How many times a wait was woken by events for other files only (read by tests and the bench).
  let foreignWakeups = Mutex(0)

  /// ``wait(timeoutMs:)`` on the calling thread.
  private func waitHere(timeoutMs: Int) -> StoreFileEvents {
    let end = timeoutMs < 0 ? nil : ContinuousClock.now + .milliseconds(timeoutMs)
    var fds = [
      pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
      pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      var left = -1
      if let end {
        let (seconds, attoseconds) = (end - ContinuousClock.now).components
        left = max(0, Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
      }
      fds[0].revents = 0
      fds[1].revents = 0
      let n = poll(&fds, 2, Int32(clamping: left))
      if n < 0 && errno == EINTR { continue }
      guard n > 0, fds[1].revents == 0 else { return [] }
      let heard = drainEvents()
      if !heard.isEmpty { return heard }
      foreignWakeups.withLock { $0 += 1 }
      if left == 0 { return [] }
      // Another file is busy: its events pile up in the kernel (which merges a file's repeated
      // events) for a rest before they are read again, so a log appended to a thousand times a
      // second wakes this thread at most ``foreignRestMs`` apart, not once an append.
      var stop = pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)
      let rest = left < 0 ? Self.foreignRestMs : min(left, Self.foreignRestMs)
      if poll(&stop, 1, Int32(rest)) > 0 { return [] }
    }
  }

  /// The rest after a wakeup that was only other files' events: a save of the store's own is
  /// heard this much later at most while a neighbour is busy (a reader still polls
  /// ``savedGap`` apart at the soonest).
  static let foreignRestMs = 50

  /// Reads every pending event; what those that name the store's files (or the folder) say.
  private func drainEvents() -> StoreFileEvents {
    var heard: StoreFileEvents = []
    while true {
      let n = read(fd, buffer.baseAddress, buffer.count)
      if n <= 0 { return heard }
      var offset = 0
      let header = MemoryLayout<inotify_event>.size
      while offset + header <= n {
        let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
        let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
        let name = buffer[(offset + header)..<min(n, offset + header + length)].prefix { $0 != 0 }
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
          heard.formUnion([.files, .lost])
        } else if mask & UInt32(IN_Q_OVERFLOW) != 0 {
          // The kernel's queue was full and events were lost: any of them may have been a save.
          heard.formUnion([.written, .files])
        } else if name.starts(with: prefix), names.contains(Array(name)) {
          heard.insert(mask & UInt32(IN_MODIFY) != 0 ? .written : .files)
        }
        offset += header + length
      }
    }
  }
}
