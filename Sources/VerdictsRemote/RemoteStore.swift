/// A store on another machine, reached through the system's `ssh`: `ssh://[user@]host[:port]/path`,
/// `host:path` (scp's form), or `host:` for the device's default store.
package struct RemoteStore: Sendable, Hashable {
  /// `[user@]host` as ssh takes it (a `~/.ssh/config` alias too).
  package var destination: String
  /// The port, when the URL form named one.
  package var port: Int?
  /// The store's path on the device; nil: the device's default store.
  package var path: String?

  /// The remote store `spec` names; nil when it names a local path. A local path holding a
  /// colon before any slash is written `./name:…`, as with scp.
  package init?(_ spec: String) {
    if spec.hasPrefix("ssh://") {
      let rest = spec.dropFirst("ssh://".count)
      let slash = rest.firstIndex(of: "/") ?? rest.endIndex
      var authority = String(rest[..<slash])
      let path = String(rest[slash...])
      if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
        guard let port = Int(authority[authority.index(after: colon)...]), (1...65535).contains(port) else {
          return nil
        }
        self.port = port
        authority = String(authority[..<colon])
      }
      guard !authority.isEmpty, !authority.hasPrefix("-") else { return nil }
      destination = authority
      // ssh://host/~/x is home-relative on the device; ssh://host//abs and ssh://host/abs are absolute.
      if path.isEmpty || path == "/" {
        self.path = nil
      } else if path.hasPrefix("/~/") {
        self.path = String(path.dropFirst())
      } else {
        self.path = path
      }
      return
    }
    guard let colon = spec.firstIndex(of: ":"), !spec[..<colon].contains("/"), colon != spec.startIndex else {
      return nil
    }
    let host = String(spec[..<colon])
    guard !host.hasPrefix("-") else { return nil }
    destination = host
    port = nil
    let rest = String(spec[spec.index(after: colon)...])
    path = rest.isEmpty ? nil : rest
  }

  /// How the store is named to a person: `host:path`, or `host:` for the default store.
  package var name: String { destination + ":" + (path ?? "") }

  /// The ssh command line that runs `remote` (words for the device's shell, each quoted here)
  /// on the device: `ssh [options] [-p port] destination -- 'word' …`. `ssh` is the program
  /// `VERDICTS_SSH` names (a command line, as `GIT_SSH_COMMAND`), else `ssh`; the words go
  /// through `/bin/sh` so that such a command line keeps its own quoting.
  package func command(running remote: [String], environment: [String: String], options: [String] = [])
    -> [String]
  {
    let ssh = environment["VERDICTS_SSH"].flatMap { $0.isEmpty ? nil : $0 } ?? "ssh"
    var words = options
    if let port { words += ["-p", String(port)] }
    words += ["--", destination, remote.map(Self.quoted).joined(separator: " ")]
    return ["/bin/sh", "-c", ssh + " \"$@\"", "verdicts-ssh"] + words
  }

  /// The device's `verdicts`: `VERDICTS_REMOTE_PATH`, else `verdicts` on the device's PATH.
  package static func program(_ environment: [String: String]) -> String {
    environment["VERDICTS_REMOTE_PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? "verdicts"
  }

  /// One word for a POSIX shell, in single quotes.
  package static func quoted(_ word: String) -> String {
    "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
  }
}
