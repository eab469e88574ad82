import Foundation

/// A second process standing in for an app on the Marfa core: it holds `BEGIN EXCLUSIVE` on the
/// store's writer-lock file, as the core's writer does while it lives (reference section 1), until
/// stopped. Python's sqlite3 module is that process here: any SQLite client holds the same lock.
public final class CoreWriterApp: @unchecked Sendable {  // unchecked: a child process, used by one test
  private let process = ChildProcess()
  private let input = Pipe()
  private let output = Pipe()

  /// The holder's pid.
  public var pid: Int32 { process.processIdentifier }

  /// Starts the holder and waits until it holds the lock.
  public init(lockPath: String) throws {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c",
      """
      import sqlite3, sys
      c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
      c.execute('BEGIN EXCLUSIVE')
      print('held', flush=True)
      while True:
          line = sys.stdin.readline()
          if not line or line.strip() == 'stop':
              break
          if line.strip() == 'check':
              print('holding' if c.in_transaction else 'lost', flush=True)
      """,
      lockPath,
    ]
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    guard readLine() == "held" else { throw FixtureError("the stand-in app could not take \(lockPath)") }
  }

  /// Whether it still holds the lock.
  public func stillHolds() -> Bool {
    input.fileHandleForWriting.write(Data("check\n".utf8))
    return readLine() == "holding"
  }

  /// Ends it (its lock goes with it).
  public func stop() {
    guard process.isRunning else { return }
    try? input.fileHandleForWriting.write(contentsOf: Data("stop\n".utf8))
    process.waitUntilExit()
  }

  private func readLine() -> String? {
    var bytes: [UInt8] = []
    while true {
      guard let chunk = try? output.fileHandleForReading.read(upToCount: 1), let b = chunk.first else { break }
      if b == 0x0A { break }
      bytes.append(b)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  deinit { stop() }
}
