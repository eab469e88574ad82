import MarfaWire

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The process's own standard output and standard error, written straight to their descriptors.
///
/// A write to standard output that fails (a full disk, a closed descriptor, a pipe whose reader
/// is gone) is kept as ``outFailure``: the command then exits non-zero saying so, like coreutils
/// (`verdicts: write error: No space left on device`), and what it would have printed after it
/// is dropped. Standard error is written as well as it can be; a failure there is not reported.
public struct StandardStreams: CommandOutput {
  /// The first failure on standard output, for the whole process (there is one standard output).
  private static let failure = Mutex<OutputFailure?>(nil)

  /// Done once, by the first ``init()``: descriptors 0, 1 and 2 that were closed when the process
  /// started are held by `/dev/null` opened read-only, so a file the command opens (the store, its
  /// lock, a log) never takes their numbers and receives the output meant for them, and a write
  /// to a closed standard output fails (`EBADF`) rather than landing anywhere. SIGPIPE is ignored,
  /// so a pipe whose reader is gone is an `EPIPE` said in words, not a silent death.
  private static let taken: Bool = {
    for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
      let held = open("/dev/null", O_RDONLY)
      if held >= 0 && held != fd {
        dup2(held, fd)
        close(held)
      }
    }
    signal(SIGPIPE, SIG_IGN)
    return true
  }()

  /// Takes the process's streams (see ``StandardStreams``).
  public init() {
    _ = Self.taken
  }

  /// Writes to standard output at once (a printed queued write is already durable); nothing
  /// more is written once a write failed.
  public func out(_ text: String) {
    Self.failure.withLock { failure in
      guard failure == nil else { return }
      if let number = Self.write(text, to: STDOUT_FILENO) { failure = OutputFailure(errorNumber: number) }
    }
  }

  /// Writes to standard error at once.
  public func err(_ text: String) {
    _ = Self.write(text, to: STDERR_FILENO)
  }

  /// The first failure writing standard output, if any.
  public var outFailure: OutputFailure? { Self.failure.withLock { $0 } }

  /// Throws the first failure; when standard output is a regular file, syncs it to its disk first.
  public func deliver() throws {
    try Self.failure.withLock { failure in
      if let failure { throw failure }
      var info = stat()
      guard fstat(STDOUT_FILENO, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
      while fsync(STDOUT_FILENO) != 0 {
        if errno == EINTR { continue }
        // A file system that cannot sync (EINVAL, EROFS) has taken what it will take.
        if errno == EINVAL || errno == EROFS { return }
        failure = OutputFailure(errorNumber: errno)
        throw failure!
      }
    }
  }

  /// Whether standard output is gone: a write failed, or the descriptor reports an error or a
  /// hang-up (a pipe without a reader, a terminal that went away), asked without waiting.
  public func isGone() -> Bool {
    Self.failure.withLock { failure in
      if failure != nil { return true }
      var poll = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
      guard Glibc.poll(&poll, 1, 0) == 1 else { return false }
      if Int32(poll.revents) & Int32(POLLNVAL) != 0 {
        failure = OutputFailure(errorNumber: EBADF)
      } else if Int32(poll.revents) & Int32(POLLERR | POLLHUP) != 0 {
        failure = OutputFailure(errorNumber: EPIPE)
      }
      return failure != nil
    }
  }

  /// Writes all of `text` to `fd`, again after an interruption, a short write, or (on a
  /// descriptor left non-blocking) once it can take more; the error number of the write that
  /// failed, or nil.
  static func write(_ text: String, to fd: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          // A descriptor left non-blocking by whoever started us: wait until it takes more.
          if errno == EAGAIN || errno == EWOULDBLOCK {
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            if Glibc.poll(&ready, 1, -1) >= 0 || errno == EINTR { continue }
          }
          return errno
        }
        if n == 0 { return EIO }
        offset += n
      }
      return nil
    }
  }
}
