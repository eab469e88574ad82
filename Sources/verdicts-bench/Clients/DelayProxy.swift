import Foundation
import MarfaWire

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A link with latency between a client and a server on loopback: a TCP proxy on 127.0.0.1 that
/// holds every byte half a round trip in each direction before passing it on, in order, so a
/// request and its answer cost one round trip (`rtt`) more than on loopback. Bandwidth is not
/// limited; the handshake with the proxy itself is local (a real link adds one round trip to
/// open a connection, which only a second connection would pay).
///
/// It counts what a drain sends through it: the connections accepted, and each HTTP/1.1 request
/// read off the client's side (method and path; bodies skipped by `Content-Length` or chunks), so
/// a bench row can say how many requests a write took and over how many connections.
final class DelayProxy: Sendable {
  /// The port clients connect to.
  let port: UInt16
  /// Half the round trip: how long each byte is held in each direction.
  let oneWayNanos: UInt64
  private let upstream: UInt16
  private let listener: Int32
  private let counts = Mutex(Counts())
  private let open = Mutex((fds: Set<Int32>(), stopped: false))
  private let threads = DispatchGroup()

  /// What went through the proxy since the last ``reset()``.
  struct Counts: Sendable {
    /// Connections accepted.
    var connections = 0
    /// Each request's method and path (without the query), in the order sent.
    var requests: [String] = []
    /// Bytes the client sent, and the server.
    var bytesUp = 0
    var bytesDown = 0
    /// Requests the reader could not parse as HTTP/1.1 (none expected).
    var unparsed = 0
    /// When the first connection was accepted, and when the server's last bytes were read
    /// (``now()``'s clock, nanoseconds; 0: not yet).
    var firstConnection: UInt64 = 0
    var lastAnswer: UInt64 = 0
  }

  /// Listens on an ephemeral loopback port and forwards each connection to 127.0.0.1:`upstream`
  /// with `rtt` of added round trip.
  init(upstream: UInt16, rtt: Duration) throws {
    self.upstream = upstream
    oneWayNanos =
      UInt64(rtt.components.seconds) * 1_000_000_000 / 2 + UInt64(rtt.components.attoseconds / 2_000_000_000)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw BenchFailure(message: "the delaying proxy has no socket") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = Self.loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
      close(fd)
      throw BenchFailure(message: "the delaying proxy cannot listen: \(String(cString: strerror(errno)))")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    listener = fd
    port = UInt16(bigEndian: address.sin_port)
    open.withLock { _ = $0.fds.insert(listener) }
    spawn { [self] in acceptLoop() }
  }

  /// The proxy's URL.
  var url: String { "http://127.0.0.1:\(port)" }

  /// The counts so far.
  var current: Counts { counts.withLock { $0 } }

  /// Starts the counts again (connections already open are not counted again).
  func reset() { counts.withLock { $0 = Counts() } }

  /// Closes the listener and every connection, and waits for the proxy's threads to end.
  func stop() {
    let fds = open.withLock { state -> Set<Int32> in
      state.stopped = true
      return state.fds
    }
    for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
    threads.wait()
    open.withLock { state in
      for fd in state.fds { close(fd) }
      state.fds = []
    }
  }

  static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
  }

  static func now() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
  }

  private func spawn(_ body: @escaping @Sendable () -> Void) {
    threads.enter()
    let thread = Thread { [threads] in
      body()
      threads.leave()
    }
    thread.start()
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        return
      }
      let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      var address = Self.loopback(port: upstream)
      let connected =
        server >= 0
        && withUnsafePointer(to: &address) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
          }
        } == 0
      let kept = open.withLock { state -> Bool in
        guard !state.stopped else { return false }
        state.fds.insert(client)
        if server >= 0 { state.fds.insert(server) }
        return true
      }
      guard kept, connected else {
        close(client)
        if server >= 0 { close(server) }
        if !kept { return }
        continue
      }
      var yes: Int32 = 1
      for fd in [client, server] {
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
      }
      counts.withLock {
        $0.connections += 1
        if $0.firstConnection == 0 { $0.firstConnection = Self.now() }
      }
      // The client's side is read on its own thread, which owns the reader.
      spawn { [self] in
        var reader = RequestReader()
        relay(from: client, to: server) { bytes in self.counted(up: bytes, &reader) }
      }
      spawn { [self] in
        relay(from: server, to: client) { bytes in
          self.counts.withLock {
            $0.bytesDown += bytes.count
            $0.lastAnswer = Self.now()
          }
        }
      }
    }
  }

  private func counted(up bytes: ArraySlice<UInt8>, _ reader: inout RequestReader) {
    let found = reader.feed(bytes)
    counts.withLock {
      $0.bytesUp += bytes.count
      $0.requests += found.requests
      $0.unparsed += found.unparsed
    }
  }

  /// One direction, on one thread: reads `from` as bytes come, stamps each read with the moment
  /// it is due at the far side, and writes it to `to` at that moment (waiting in `ppoll` for
  /// whichever comes first, more bytes or the next due moment); at the end, half-closes `to`.
  private func relay(from: Int32, to: Int32, seen: (ArraySlice<UInt8>) -> Void) {
    var pending: [(due: UInt64, bytes: [UInt8]?)] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    var reading = true
    while reading || !pending.isEmpty {
      var timeout: UInt64?
      if let first = pending.first {
        let now = Self.now()
        if first.due <= now {
          pending.removeFirst()
          guard let bytes = first.bytes else {
            shutdown(to, Int32(SHUT_WR))
            continue
          }
          guard Self.sendAll(bytes, to: to) else {
            shutdown(from, Int32(SHUT_RDWR))
            shutdown(to, Int32(SHUT_RDWR))
            return
          }
          continue
        }
        timeout = first.due - now
      }
      // Once the reading side ended, only the due moments are waited for.
      guard let readable = Self.wait(reading ? from : nil, nanoseconds: timeout) else { return }
      guard readable else { continue }
      let n = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
      if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
      let due = Self.now() + oneWayNanos
      if n > 0 {
        seen(buffer[0..<n])
        pending.append((due, Array(buffer[0..<n])))
      } else {
        pending.append((due, nil))
        reading = false
      }
    }
  }

  /// Waits until `fd` is readable (true) or `nanoseconds` pass (false; nil: no limit), to the
  /// microsecond (`select`: `poll` counts whole milliseconds); nil on an error.
  static func wait(_ fd: Int32?, nanoseconds: UInt64?) -> Bool? {
    var set = fd_set()
    if let fd {
      withUnsafeMutableBytes(of: &set) { bits in
        let word = MemoryLayout<Int>.size
        bits.baseAddress!.advanced(by: Int(fd) / (8 * word) * word).assumingMemoryBound(to: Int.self).pointee |=
          1 << (Int(fd) % (8 * word))
      }
    }
    var limit = timeval(
      tv_sec: Int(((nanoseconds ?? 0) + 999) / 1_000_000_000),
      tv_usec: Int(((nanoseconds ?? 0) + 999) % 1_000_000_000 / 1000))
    let n = withUnsafeMutablePointer(to: &limit) { limitPointer in
      withUnsafeMutablePointer(to: &set) { setPointer in
        select((fd ?? -1) + 1, fd == nil ? nil : setPointer, nil, nil, nanoseconds == nil ? nil : limitPointer)
      }
    }
    if n < 0 { return errno == EINTR ? false : nil }
    return n > 0
  }

  /// Writes all of `bytes` to `fd`; false when the connection is gone.
  static func sendAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return false }
      sent += n
    }
    return true
  }
}

/// Finds the HTTP/1.1 requests in the bytes a client sends, fed as they arrive: each request's
/// head (`METHOD /path HTTP/1.1`), then its body by `Content-Length` or in chunks.
struct RequestReader {
  private var buffer: [UInt8] = []
  /// Body bytes still to skip (by length), or the chunked body under way.
  private var skipping = 0
  private var chunked = false

  /// The requests whose heads the new bytes completed ("POST /items"), and how many heads could not be read.
  mutating func feed(_ bytes: ArraySlice<UInt8>) -> (requests: [String], unparsed: Int) {
    buffer.append(contentsOf: bytes)
    var requests: [String] = []
    var unparsed = 0
    while true {
      if skipping > 0 {
        let n = min(skipping, buffer.count)
        buffer.removeFirst(n)
        skipping -= n
        if skipping > 0 { break }
        continue
      }
      if chunked {
        guard let line = buffer.firstRange(of: [13, 10]) else { break }
        let size = Int(
          String(decoding: buffer[..<line.lowerBound], as: UTF8.self).split(separator: ";").first ?? "", radix: 16)
        buffer.removeSubrange(..<line.upperBound)
        guard let size else {
          unparsed += 1
          buffer = []
          chunked = false
          break
        }
        if size == 0 {
          // The last chunk: its (empty) trailer ends at the next blank line.
          chunked = false
          skipping = 2
        } else {
          skipping = size + 2
        }
        continue
      }
      guard let end = buffer.firstRange(of: [13, 10, 13, 10]) else { break }
      let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
      buffer.removeSubrange(..<end.upperBound)
      let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
      let words = lines.first?.split(separator: " ") ?? []
      guard words.count == 3, words[2].hasPrefix("HTTP/1.") else {
        unparsed += 1
        buffer = []
        break
      }
      let path = words[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
      requests.append("\(words[0]) \(path)")
      for line in lines.dropFirst() {
        let lower = line.lowercased()
        if lower.hasPrefix("content-length:") {
          skipping = Int(lower.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0
        } else if lower.hasPrefix("transfer-encoding:") && lower.contains("chunked") {
          chunked = true
        }
      }
    }
    return (requests, unparsed)
  }
}
