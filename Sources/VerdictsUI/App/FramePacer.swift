/// When the next frame may go: a byte budget rather than a fixed frame rate (docs/tui.md, "Frames
/// and pacing").
///
/// A token bucket over the bytes the terminal actually wrote: it fills at ``bytesPerSecond`` up to
/// ``burst``; a frame may go while the bucket is above zero, and what it wrote is taken out after
/// (so the bucket may go below zero, and the next frame waits until it is back above). A frame that
/// wrote nothing costs nothing; what is owed is capped at one burst (a big frame holds the next
/// back at most a second). So a single change after quiet shows at once, a stream of changes
/// averages at most ``bytesPerSecond``, and frames never come closer than ``minimumGap``. A frame
/// answering a key, click or resize goes at once (its bytes still come out of the bucket).
///
/// The first frame waits until the first pages and counts are read (``firstFrameLimit`` at most),
/// so it never shows a count that is not known yet as a number.
struct FramePacer: Sendable, Hashable {
  /// The bytes a second frames may average while updates stream (an SSH link of 2.5 KB/s keeps up).
  static let bytesPerSecond = 2_048
  /// The bytes that may go at once after quiet.
  static let burst = 2_048
  /// The shortest gap between two frames that wrote something.
  static let minimumGap: Duration = .milliseconds(30)
  /// The longest the first frame waits for the first reads.
  static let firstFrameLimit: Duration = .milliseconds(500)
  /// The longest a change's frame waits for the page and status reads it started, so a change
  /// is one frame and not one a read.
  static let readsLimit: Duration = .milliseconds(25)

  /// What the loop should do now.
  enum Decision: Sendable, Hashable {
    /// Draw a frame now.
    case draw
    /// Nothing is waiting to be drawn: wait for input or a wake, with no timer.
    case idle
    /// A frame is due but must wait this long (or until the first reads end).
    case wait(Duration)
  }

  let bytesPerSecond: Int
  let burst: Int
  let minimumGap: Duration
  let firstFrameLimit: Duration
  /// The bytes the bucket holds (below zero: owed).
  private(set) var tokens: Double
  /// When the bucket was last filled.
  private var filledAt: Duration
  /// When the last frame that wrote something went.
  private var lastFrame: Duration?
  /// When the pacer started (the first frame's deadline counts from it).
  private let start: Duration
  /// Whether a frame has been drawn.
  private(set) var drewFirst = false
  /// Since when something waits to be drawn while reads are under way.
  private var readingSince: Duration?

  /// A pacer whose clock reads `now`.
  init(
    now: Duration, bytesPerSecond: Int = Self.bytesPerSecond, burst: Int = Self.burst,
    minimumGap: Duration = Self.minimumGap, firstFrameLimit: Duration = Self.firstFrameLimit
  ) {
    self.bytesPerSecond = bytesPerSecond
    self.burst = burst
    self.minimumGap = minimumGap
    self.firstFrameLimit = firstFrameLimit
    self.tokens = Double(burst)
    self.filledAt = now
    self.start = now
  }

  /// Whether to draw now, given whether something changed, whether a key, click or resize changed
  /// it (the person waits for that frame: it goes as soon as the reads it started are in, at most
  /// ``readsLimit``, whatever the budget; its bytes still counted), whether reads are under way
  /// (their results are waited for up to ``readsLimit``), and whether the first reads are in.
  mutating func decide(
    now: Duration, dirty: Bool, input: Bool = false, reading: Bool = false, firstReadsDone: Bool
  ) -> Decision {
    fill(now: now)
    if !drewFirst {
      let waited = now - start
      if !firstReadsDone && waited < firstFrameLimit { return .wait(firstFrameLimit - waited) }
      return .draw
    }
    guard dirty else { return .idle }
    var wait = Duration.zero
    if reading {
      let since = readingSince ?? now
      readingSince = since
      if now - since < Self.readsLimit { wait = Self.readsLimit - (now - since) }
    } else {
      readingSince = nil
    }
    // A key's frame waits as briefly for the reads the key started (`s` finds the selected write
    // in the new order, then reads its page): one whole frame, not rows of `…` and then the rows
    // a budgeted frame later. The budget does not hold it back.
    if input { return wait > .zero ? .wait(wait) : .draw }
    wait = max(wait, untilNextFrame(now: now))
    return wait > .zero ? .wait(wait) : .draw
  }

  /// How long from `now` until a frame that is not answering input may go: zero when one may go
  /// now, else until the gap since the last frame has passed and the bucket is back above zero.
  func untilNextFrame(now: Duration) -> Duration {
    var bucket = self
    bucket.fill(now: now)
    var wait = Duration.zero
    if let lastFrame, now - lastFrame < minimumGap { wait = minimumGap - (now - lastFrame) }
    if bucket.tokens <= 0 {
      wait = max(wait, .milliseconds(Int(((-bucket.tokens + 1) * 1000 / Double(bytesPerSecond)).rounded(.up))))
    }
    return wait
  }

  /// Records a frame drawn at `now` that wrote `bytes` to the terminal.
  mutating func drew(bytes: Int, now: Duration) {
    fill(now: now)
    drewFirst = true
    readingSince = nil
    guard bytes > 0 else { return }
    // What is owed is capped at one burst: after a big frame (the first, a key's, a resize's)
    // updates wait at most a second, not the seconds its bytes take on a slow link.
    tokens = max(-Double(burst), tokens - Double(bytes))
    lastFrame = now
  }

  private mutating func fill(now: Duration) {
    guard now > filledAt else { return }
    let seconds = Double((now - filledAt).components.seconds) + Double((now - filledAt).components.attoseconds) / 1e18
    tokens = min(Double(burst), tokens + seconds * Double(bytesPerSecond))
    filledAt = now
  }
}
