import FoundationEssentials

/// Checks on the instance URL (`--url`, `MARFA_API_URL`) made before anything is opened or stored.
enum InstanceURL {
  /// Refuses a URL that is not `http(s)://host[:port][/path]`: a user name or password in it
  /// (it would be stored and shown; the key is the way to sign in), a port outside 1–65535, no
  /// host. A refusal never repeats what came before the `@`.
  static func check(_ url: String) throws {
    let lower = url.lowercased()
    guard let schemeEnd = lower.firstRange(of: "://"),
      ["http", "https"].contains(String(lower[..<schemeEnd.lowerBound]))
    else {
      throw usage("the instance URL must be http:// or https:// with a host, not '\(shown(url))'")
    }
    let rest = url[schemeEnd.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if authority.contains("@") {
      throw usage(
        "the instance URL holds a user name or password, which would be stored and shown; "
          + "give the URL without it and the key with MARFA_API_KEY or --key-file")
    }
    var host = Substring(authority)
    var port: Substring?
    if host.hasPrefix("[") {
      guard let close = host.firstIndex(of: "]") else {
        throw usage("the instance URL's host '\(host)' is not closed by ']'")
      }
      let after = host[host.index(after: close)...]
      if after.hasPrefix(":") { port = after.dropFirst() }
      host = host[...close]
    } else if let colon = host.lastIndex(of: ":") {
      port = host[host.index(after: colon)...]
      host = host[..<colon]
    }
    guard !host.isEmpty, host != "[]" else {
      throw usage("the instance URL must be http:// or https:// with a host, not '\(shown(url))'")
    }
    if let port {
      guard let n = Int(port), (1...65_535).contains(n), port.allSatisfy(\.isASCII) else {
        throw usage("the port '\(port)' in the instance URL is not a number between 1 and 65535")
      }
    }
    guard URL(string: url)?.host != nil else {
      throw usage("the instance URL '\(shown(url))' cannot be read as a URL")
    }
  }

  /// Refuses a `--proxy` that is not `SCHEME://host[:port]` with a scheme libcurl speaks to a
  /// proxy (http, https, socks4, socks4a, socks5, socks5h), or that holds a user name or password
  /// (it would be shown in the warning that names the proxy).
  static func checkProxy(_ proxy: String) throws {
    let schemes = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]
    guard let schemeEnd = proxy.firstRange(of: "://"), schemes.contains(proxy[..<schemeEnd.lowerBound].lowercased())
    else {
      throw usage(
        "--proxy must be a URL with one of the schemes \(schemes.joined(separator: ", ")), not '\(shown(proxy))'")
    }
    let authority = proxy[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !authority.contains("@") else {
      throw usage("the --proxy URL holds a user name or password, which would be shown; it is not taken")
    }
    guard !authority.isEmpty, !authority.hasPrefix(":") else {
      throw usage("the --proxy URL '\(shown(proxy))' names no host")
    }
  }

  /// The URL with its scheme and host in lower case (both are case-insensitive); the rest as given.
  static func normalized(_ url: String) -> String {
    guard let schemeEnd = url.firstRange(of: "://") else { return url }
    let rest = url[schemeEnd.upperBound...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    return url[..<schemeEnd.lowerBound].lowercased() + "://" + rest[..<authorityEnd].lowercased()
      + rest[authorityEnd...]
  }

  /// The URL as a refusal may repeat it: never its user information.
  static func shown(_ url: String) -> String {
    guard let schemeEnd = url.firstRange(of: "://") else { return url }
    let rest = url[schemeEnd.upperBound...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
    return String(url[..<schemeEnd.upperBound]) + "…@" + String(rest[rest.index(after: at)...])
  }

  static func usage(_ message: String) -> CommandFailure {
    CommandFailure(code: "usage", message: message, exit: .usage)
  }
}
