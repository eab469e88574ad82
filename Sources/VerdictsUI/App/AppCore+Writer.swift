import FoundationEssentials
import MarfaQueue

extension AppCore {
  /// How often the writer's lock is asked whether it still lives, where the source cannot say
  /// when its files are touched (a killed writer writes nothing).
  static let writerProbeInterval: Duration = .seconds(1)
  /// How often relative times (`3 min ago`) are drawn again when nothing else changes.
  static let tickInterval = 60
  /// After an event on the store's files, a second check this much later (a writer's lock is let
  /// go as its files close, a moment after the close is heard).
  static let secondLook: Duration = .milliseconds(250)

  /// Asks about the writer and the store file when the store's files are touched (a writer that
  /// comes, goes or dies opens or closes them; a store removed or replaced is a delete, move or
  /// create), or every second where the source cannot say; posts its record when it came, went,
  /// died, or started or ended a drain, and the file's state when it changed (and, polling, a
  /// tick once a minute; else the UI loop ticks). Posts nothing else, so an idle screen stays
  /// still and the process sleeps between.
  /// Holds the inbox only while it works on it: once the app lets go of it, the loop ends.
  static func watchWriter(_ currentInbox: @escaping @Sendable () -> AppInbox?) async {
    while !Task.isCancelled {
      guard let source = currentInbox()?.source else { return }
      guard let events = source.storeFileEvents() else {
        await pollWriter(currentInbox)
        return
      }
      // Ends when the source was replaced by a reader of the new file: then follow that one.
      guard await follow(source, events: events, currentInbox) else { return }
    }
  }

  /// The watch of one source's files; true when it was replaced by a reader of a new file at
  /// its path (a store removed, or replaced, and one there again), false when the watch ended.
  private static func follow(
    _ source: QueueSource, events: AsyncStream<Void>, _ currentInbox: @escaping @Sendable () -> AppInbox?
  ) async -> Bool {
    // No timer here while the file is there: the UI loop ticks relative times by its own poll
    // timeout, so nothing but an event wakes this task.
    let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let relay = Task.detached {
      for await _ in events { wake.yield() }
      wake.finish()
    }
    // While the file at the path is not the one read (nothing there, or nothing readable yet),
    // a check every second: a file made and kept open by its writer says nothing more.
    var waiting: Task<Void, Never>?
    // A live writer's drain that stops moving, or a heartbeat that does not come, touches no
    // file: one check at the moment it would be due (none while no writer lives, so idle is still).
    var timed: (at: Date, task: Task<Void, Never>)?
    defer {
      relay.cancel()
      waiting?.cancel()
      timed?.task.cancel()
    }
    var probe = WriterProbe()
    func armTimedLook() {
      let due = probe.nextTimedLook(now: Date())
      guard due != timed?.at else { return }
      timed?.task.cancel()
      timed = due.map { at in
        (
          at,
          Task.detached {
            let wait = max(0, at.timeIntervalSinceNow)
            do { try await Task.sleep(for: .milliseconds(Int64(wait * 1000))) } catch { return }
            wake.yield()
          }
        )
      }
    }
    if let inbox = currentInbox() { await probe.check(inbox, seenUntilNow: false) }
    armTimedLook()
    for await _ in wakes {
      defer { armTimedLook() }
      guard let inbox = currentInbox(), !Task.isCancelled else { return false }
      await probe.check(inbox, seenUntilNow: true)
      if probe.file == .same {
        do { try await Task.sleep(for: secondLook) } catch { return false }
        await probe.check(inbox, seenUntilNow: true)
      }
      if probe.file == .replaced, let fresh = await source.reopen() {
        inbox.replace(source: fresh)
        inbox.post(.reopened)
        source.close()
        return true
      }
      if probe.file == .same {
        waiting?.cancel()
        waiting = nil
      } else if waiting == nil {
        waiting = Task.detached {
          while !Task.isCancelled {
            do { try await Task.sleep(for: writerProbeInterval) } catch { return }
            wake.yield()
          }
        }
      }
    }
    return false
  }

  /// Asks about the writer every second (a source that cannot say when its files are touched).
  static func pollWriter(_ currentInbox: @escaping @Sendable () -> AppInbox?) async {
    var probe = WriterProbe()
    var seconds = 0
    while !Task.isCancelled {
      do { try await Task.sleep(for: writerProbeInterval) } catch { return }
      guard let inbox = currentInbox() else { return }
      seconds += 1
      await probe.check(inbox, seenUntilNow: false)
      if seconds % tickInterval == 0, probe.writer != nil { inbox.post(.event(.tick(Date()))) }
    }
  }
}
