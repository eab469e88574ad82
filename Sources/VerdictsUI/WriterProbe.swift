import FoundationEssentials
import MarfaQueue

/// One look at the writer and the store file, and what changed since the last look: posted to the
/// inbox only when the writer's phase or the file's state changed (``AppCore/watchWriter(_:)``).
struct WriterProbe {
  private var last = WriterText.phase(nil)
  private var lastState: WriterRecord.State?
  private var lastAlive: Date?
  /// The store file's state as last seen.
  private(set) var file = StoreFileState.same
  /// The record as last read (nil: none, or not asked yet).
  private(set) var writer: WriterRecord?

  /// Asks the source about its writer and its file; posts what changed. `seenUntilNow`: the
  /// looks come on events (a writer that dies closes its files), so a writer found gone right
  /// after being live was last alive about now.
  mutating func look(_ inbox: AppInbox, seenUntilNow: Bool) async {
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
    let phase = WriterText.phase(w)
    if phase != last {
      last = phase
      inbox.post(.event(.writer(w, at: now)))
    }
  }
}
