import FoundationEssentials
import MarfaWire

/// Output kept in memory, for running commands in-process (tests, and callers that want the text).
public final class CapturedOutput: CommandOutput, Sendable {
  private let text = Mutex((out: "", err: ""))

  /// Creates an empty capture.
  public init() {}

  /// Everything written to standard output so far.
  public var stdout: String { text.withLock { $0.out } }
  /// Everything written to standard error so far.
  public var stderr: String { text.withLock { $0.err } }

  /// Keeps `text` as standard output.
  public func out(_ text: String) { self.text.withLock { $0.out += text } }
  /// Keeps `text` as standard error.
  public func err(_ text: String) { self.text.withLock { $0.err += text } }
}
