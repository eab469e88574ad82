import FoundationEssentials
import MarfaQueue

/// One check of the writer and the store file, and what changed since the last check: posted to the
/// inbox only when the writer's phase or the file's state changed (``AppCore/watchWriter(_:)``).
struct WriterProbe {
  private var last = WriterText.phase(nil)
  private var lastState: WriterRecord.State?
  private var lastAlive: Date?
  /// The store file's state as last seen.
  private(set) var file = StoreFileState.same
  /// The record as last read (nil: none, or not asked yet).
  private(set) var writer: WriterRecord?

  /// When a check could find the writer changed without its files being touched: its drain
  /// stalls, or its heartbeat goes missing (a stopped writer writes nothing); nil when no such
  /// moment comes (no live writer).
  func nextTimedLook(now: Date) -> Date? {
    guard let w = writer, w.state == .live else { return nil }
    var at: [Date] = []
    if let d = w.drain, !w.stalled(now: now) {
      at.append((d.movedAt ?? d.startedAt).addingTimeInterval(WriterRecord.stallSeconds + 0.5))
    }
    if let beat = w.heartbeatSeconds, !w.silent(now: now) {
      at.append(w.updatedAt.addingTimeInterval(Double(2 * beat) + WriterRecord.stallSeconds + 0.5))
    }
    return at.min()
  }

  /// Asks the source about its writer and its file; posts what changed. `seenUntilNow`: the
  /// checks come on events (a writer that dies closes its files), so a writer found gone right
  /// after being live was last alive about now.
  mutating func check(_ inbox: AppInbox, seenUntilNow: Bool) async {
    var w = try? await inbox.source.writer()
    let now = Date()
    if w?.state == .live { lastAlive = now }
    if seenUntilNow, w?.state == .gone, lastState == .live { lastAlive = now }
    lastState = w?.state
    // A writer that died was last seen by this probe, when that is later than its last write.
    if w?.state == .gone, let seen = lastAlive, let at = w?.updatedAt, seen > at { w?.updatedAt = seen }
    writer = w
    let file = inbox.source.storeFileState()
    if file != self.file {
      self.file = file
      inbox.post(.event(.storeFile(file, at: now)))
    }
    // The phase as of now (a drain that stalled, a writer gone silent), and the writer's heartbeat
    // at most once a minute, so the screen's `silent` is judged on its latest beat.
    let beat = w.map { Int($0.updatedAt.timeIntervalSince1970) / Int(WriterRecord.heartbeat.components.seconds) } ?? 0
    let phase = WriterText.phase(w, now: now) + " \(beat)"
    if phase != last {
      last = phase
      inbox.post(.event(.writer(w, at: now)))
    }
  }
}
