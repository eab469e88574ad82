import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// TCP sockets on 127.0.0.1, opened by hand: the one place the tests call `socket`, `bind` and
/// `connect` (``RawServer``, the relay that holds answers back, the raw HTTP client).
public enum Loopback {
  /// A socket listening on 127.0.0.1 at a port the kernel chose (close-on-exec, address reuse on).
  public struct Listener: Sendable {
    /// The listening socket.
    public let fd: Int32
    /// The port it listens on.
    public let port: UInt16
  }

  /// Why a loopback socket could not be opened.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Listens on 127.0.0.1 with a backlog of `backlog`.
  public static func listen(backlog: Int32 = 64) throws -> Listener {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "cannot open a socket: errno \(errno)") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = Self.address(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
      let reason = errno
      Glibc.close(fd)
      throw Failure(description: "cannot listen on 127.0.0.1: errno \(reason)")
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Listener(fd: fd, port: UInt16(bigEndian: actual.sin_port))
  }

  /// A socket connected to 127.0.0.1:`port`; nil when the connection was refused.
  public static func connect(port: UInt16) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = Self.address(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      Glibc.close(fd)
      return nil
    }
    return fd
  }

  private static func address(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
  }
}
