/// Reads a ``PseudoTerminal``'s bytes into a ``ScreenModel`` as they come, frame by frame: a
/// frame is a burst of reads less than ``gap`` apart (ncurses writes a frame in one go).
final class ScreenFollower {
  let pty: PseudoTerminal
  private(set) var model: ScreenModel
  private var next = 0
  private var lastTime: ContinuousClock.Instant?
  /// Reads closer than this belong to one frame.
  static let gap: Duration = .milliseconds(5)

  /// A frame found: its last read, and how many earlier frames showed a wrong number.
  struct Frame {
    var last: PseudoTerminal.Chunk
    var wrongFrames: Int
  }

  init(_ pty: PseudoTerminal) {
    self.pty = pty
    model = ScreenModel(width: pty.width, height: pty.height)
  }

  /// The titles shown now.
  var titles: PaneTitles { PaneTitles(screen: model) }

  /// Waits for the first frame whose titles show `truth` and returns its last read; nil when none
  /// came within `limit`.
  func waitFor(_ truth: PaneTitles, limit: Duration) async -> Frame? {
    let deadline = ContinuousClock.now + limit
    var matched: PseudoTerminal.Chunk?
    var wrong = 0
    while true {
      let all = pty.received
      while next < all.count {
        let chunk = all[next]
        if let last = lastTime, chunk.time - last > Self.gap {
          // The frame before this read is whole.
          if let m = matched { return Frame(last: m, wrongFrames: wrong) }
          if titles.showsWrongNumber(truth) { wrong += 1 }
        }
        model.feed(chunk.bytes)
        lastTime = chunk.time
        next += 1
        if matched != nil {
          matched = chunk
        } else if titles.shows(truth) {
          matched = chunk
        }
      }
      if let m = matched, let last = lastTime, ContinuousClock.now - last > Self.gap {
        return Frame(last: m, wrongFrames: wrong)
      }
      if ContinuousClock.now > deadline { return nil }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  /// Feeds what has come so far.
  func catchUp() {
    let all = pty.received
    while next < all.count {
      model.feed(all[next].bytes)
      lastTime = all[next].time
      next += 1
    }
  }
}
