import FoundationEssentials

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The few POSIX socket calls the server makes, each with its failure turned into a value.
enum Socket {
  /// What waiting on a socket came to.
  enum Wait {
    case readable
    case woken
    case timedOut
  }

  /// Opens a TCP listener on 127.0.0.1 (`port` 0 → an ephemeral port) and returns it with its port.
  static func listen(port: UInt16) throws -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw InstanceError.cannotListen(port: port, reason: errnoText()) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, Glibc.listen(fd, 128) == 0 else {
      let reason = errnoText()
      close(fd)
      throw InstanceError.cannotListen(port: port, reason: reason)
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, UInt16(bigEndian: actual.sin_port))
  }

  /// Accepts one connection, or nil when none could be taken.
  static func accept(_ listener: Int32) -> Int32? {
    let fd = Glibc.accept(listener, nil, nil)
    guard fd >= 0 else { return nil }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    var yes: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    return fd
  }

  /// Waits until `fd` is readable, `wake` is readable (the server is stopping), or `milliseconds` pass (-1: forever).
  static func wait(_ fd: Int32, wake: Int32, milliseconds: Int32) -> Wait {
    var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
    while true {
      let n = poll(&fds, 2, milliseconds)
      if n < 0 && errno == EINTR { continue }
      if n < 0 { return .woken }
      if n == 0 { return .timedOut }
      if fds[1].revents != 0 { return .woken }
      return .readable
    }
  }

  /// Reads what is there into `buffer`; the count read, 0 at the end of the stream, -1 on an error.
  static func read(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = recv(fd, &chunk, chunk.count, 0)
      if n < 0 && errno == EINTR { continue }
      if n > 0 { buffer.append(contentsOf: chunk[0..<n]) }
      return n
    }
  }

  /// Writes all of `bytes`; false when the peer is gone or the write timed out.
  static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let n = bytes.withUnsafeBytes { raw in
        send(fd, raw.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
      }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return false }
      sent += n
    }
    return true
  }

  /// Makes a pipe whose read end becomes readable, for every waiter, once a byte is written.
  static func wakePipe() throws -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw InstanceError.cannotListen(port: 0, reason: errnoText()) }
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    return (fds[0], fds[1])
  }

  /// Writes one byte to a wake pipe.
  static func signal(_ pipeWriteEnd: Int32) {
    var byte: UInt8 = 1
    _ = Glibc.write(pipeWriteEnd, &byte, 1)
  }

  /// Ends both directions of a socket, waking any thread blocked on it.
  static func shutdown(_ fd: Int32) {
    _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
  }

  /// Makes the coming close reset the connection (RST) rather than end it in order.
  static func resetOnClose(_ fd: Int32) {
    var hard = linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, socklen_t(MemoryLayout<linger>.size))
  }

  /// Closes a descriptor.
  static func close(_ fd: Int32) {
    _ = Glibc.close(fd)
  }

  /// The text of the current `errno`.
  static func errnoText() -> String { String(cString: strerror(errno)) }
}
