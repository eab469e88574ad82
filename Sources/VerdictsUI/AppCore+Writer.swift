import Foundation
import MarfaQueue

extension AppCore {
  /// How often the writer's lock is asked whether it still lives (a killed writer writes nothing).
  static let writerProbeInterval: Duration = .seconds(1)
  /// How often relative times (`3 min ago`) are drawn again when nothing else changes.
  static let tickInterval = 60

  /// Asks about the writer every second and posts its record when it came, went, died, or
  /// started or ended a drain; posts a tick once a minute. Posts nothing else, so an idle screen
  /// stays still between ticks.
  /// Holds the inbox only while it works on it: once the app lets go of it, the loop ends.
  static func watchWriter(_ currentInbox: @escaping @Sendable () -> AppInbox?) async {
    // On the real clock, not the app's: a test that moves the app's clock by hand sees no extra sleeper.
    var last = WriterText.phase(nil)
    var seconds = 0
    var lastAlive: Date?
    var lastFile = StoreFileState.same
    while !Task.isCancelled {
      do { try await Task.sleep(for: writerProbeInterval) } catch { return }
      guard let inbox = currentInbox() else { return }
      seconds += 1
      var w = try? await inbox.source.writer()
      if w?.state == .live { lastAlive = Date() }
      // A writer that died was last seen by this probe, when that is later than its last write.
      if w?.state == .gone, let seen = lastAlive, let at = w?.updatedAt, seen > at { w?.updatedAt = seen }
      let file = inbox.source.storeFileState()
      if file != lastFile {
        lastFile = file
        inbox.post(.event(.storeFile(file, at: Date())))
      }
      let phase = WriterText.phase(w)
      if phase != last {
        last = phase
        inbox.post(.event(.writer(w, at: Date())))
      } else if seconds % tickInterval == 0, w != nil {
        inbox.post(.event(.tick(Date())))
      }
    }
  }
}
