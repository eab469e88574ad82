import Glibc

/// Whether a URL's host is this machine, judged by its address, never by how it is spelled.
enum LoopbackHost {
  /// Whether `host` (as a URL holds it: a name, an IPv4 address, or an IPv6 one in brackets)
  /// is on this machine: an address in 127.0.0.0/8 or `::1` (also as `::ffff:127.x.y.z`), or the
  /// name `localhost` or one ending `.localhost`, which libcurl answers itself with a loopback
  /// address without asking any resolver.
  ///
  /// Any other name counts as another machine, whatever it resolves to now: `127.attacker.example`
  /// is a name, and what a resolver says when the warning is decided may not be what it says
  /// when the request goes. Only a literal address is read (`getaddrinfo` with
  /// `AI_NUMERICHOST`: no resolver is asked, so this is instant and works offline).
  static func isLoopback(host: String) -> Bool {
    var name = host.lowercased()
    if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    if name.hasSuffix(".") { name = String(name.dropLast()) }
    if name == "localhost" || name.hasSuffix(".localhost") { return true }
    guard !name.isEmpty, !name.contains("%") else { return false }
    var hints = addrinfo()
    hints.ai_flags = AI_NUMERICHOST
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return false }
    defer { freeaddrinfo(list) }
    var node: UnsafeMutablePointer<addrinfo>? = first
    var any = false
    while let n = node {
      guard let address = n.pointee.ai_addr, isLoopback(address, family: n.pointee.ai_family) else { return false }
      any = true
      node = n.pointee.ai_next
    }
    return any
  }

  /// Whether one socket address is a loopback one.
  private static func isLoopback(_ address: UnsafeMutablePointer<sockaddr>, family: Int32) -> Bool {
    switch family {
    case AF_INET:
      return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { a in
        UInt32(bigEndian: a.pointee.sin_addr.s_addr) >> 24 == 127
      }
    case AF_INET6:
      return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { a in
        let bytes = withUnsafeBytes(of: a.pointee.sin6_addr) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        // ::ffff:127.x.y.z, an IPv4 loopback address written as IPv6.
        return bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
      }
    default:
      return false
    }
  }
}
