import Foundation

/// Output kept in memory, for running commands in-process (tests, and callers that want the text).
public final class CapturedOutput: CommandOutput, @unchecked Sendable {
  private let lock = NSLock()
  private var outText = ""
  private var errText = ""

  /// Creates an empty capture.
  public init() {}

  /// Everything written to standard output so far.
  public var stdout: String { lock.withLock { outText } }
  /// Everything written to standard error so far.
  public var stderr: String { lock.withLock { errText } }

  /// Keeps `text` as standard output.
  public func out(_ text: String) { lock.withLock { outText += text } }
  /// Keeps `text` as standard error.
  public func err(_ text: String) { lock.withLock { errText += text } }
}
