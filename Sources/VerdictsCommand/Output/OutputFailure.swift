#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Standard output (or a file given for output) could not take what was written: a full disk
/// (`ENOSPC`), a closed descriptor (`EBADF`), a pipe whose reader is gone (`EPIPE`).
public struct OutputFailure: Error, Sendable, Hashable {
  /// The error number the write (or the sync) failed with.
  public var errorNumber: Int32

  /// Creates the failure of a write that failed with `errorNumber`.
  public init(errorNumber: Int32) {
    self.errorNumber = errorNumber
  }

  /// The system's words for the error: `No space left on device`.
  public var reason: String { String(cString: strerror(errorNumber)) }

  /// As coreutils say it: `write error: No space left on device`.
  public var message: String { "write error: \(reason)" }
}
