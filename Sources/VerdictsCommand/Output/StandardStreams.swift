#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The process's own standard output and standard error, flushed after every write.
public struct StandardStreams: CommandOutput {
  /// Creates the process's streams.
  public init() {}

  /// Writes to standard output and flushes it (a printed queued write is already durable).
  public func out(_ text: String) {
    fputs(text, stdout)
    fflush(stdout)
  }

  /// Writes to standard error and flushes it.
  public func err(_ text: String) {
    fputs(text, stderr)
    fflush(stderr)
  }
}
