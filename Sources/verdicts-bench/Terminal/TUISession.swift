import Foundation

/// `verdicts watch` on a 120×40 pty, as a person (or sshd) starts it, and its first complete frame.
struct TUISession {
  static let width = 120
  static let height = 40

  let pty: PseudoTerminal
  let follower: ScreenFollower

  /// Starts `verdicts watch --store STORE` (a reader: it never changes the store) in a home of its own.
  init(store: String, home: String, link: SSHLink? = nil) throws {
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    pty = try PseudoTerminal(
      executable: try Binaries.verdicts(), arguments: ["watch", "--store", store],
      environment: Binaries.environment(home: home), width: Self.width, height: Self.height, link: link)
    follower = ScreenFollower(pty)
  }

  /// The first frame whose pane titles show `truth`, timed from the exec; nil when none came in `limit`.
  func firstFrame(_ truth: PaneTitles, limit: Duration = .seconds(30)) async -> (ms: Double, wrongFrames: Int)? {
    guard let frame = await follower.waitFor(truth, limit: limit) else { return nil }
    return (Stats.seconds(frame.last.time - pty.child.started) * 1000, frame.wrongFrames)
  }

  /// Waits for the first complete frame and then for a quiet `quiet`; throws when none came.
  func ready(_ truth: PaneTitles, what: String, limit: Duration = .seconds(60)) async throws {
    guard await firstFrame(truth, limit: limit) != nil else {
      pty.finish()
      throw BenchFailure(
        message: "\(what): `verdicts watch` never showed \(truth) in \(limit); it showed \(follower.titles)")
    }
    await pty.settle(quiet: .milliseconds(500), limit: .seconds(5))
    follower.catchUp()
  }
}
