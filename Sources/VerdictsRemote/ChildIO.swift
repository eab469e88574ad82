#if canImport(Glibc)
  import Glibc
#endif

/// What the link's children share: starting one, and writing all of some bytes.
enum ChildIO {
  /// `posix_spawn` of `argv` (its first word a path) with `environment`; the child's pid, or the
  /// error number.
  static func spawn(
    _ argv: [String], environment: [String: String], actions: inout posix_spawn_file_actions_t,
    attributes: UnsafePointer<posix_spawnattr_t>?
  ) -> Result<pid_t, SpawnError> {
    let args = argv.map { strdup($0) } + [nil]
    let env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      args.forEach { free($0) }
      env.forEach { free($0) }
    }
    var child: pid_t = 0
    let rc = posix_spawn(&child, argv[0], &actions, attributes, args, env)
    return rc == 0 ? .success(child) : .failure(SpawnError(number: rc))
  }

  /// A child that could not be started.
  struct SpawnError: Error {
    var number: Int32
    var words: String { String(cString: strerror(number)) }
  }

  /// Writes all of `bytes` to `fd` (again after EINTR); false when it cannot (the reader gone).
  static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return false }
      sent += n
    }
    return true
  }
}
