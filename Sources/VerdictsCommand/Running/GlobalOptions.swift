import FoundationEssentials
import Glibc
import MarfaQueue

/// The global options, resolved against the environment: flag, then variable, then default.
public struct GlobalOptions: Sendable, Hashable {
  /// The store file: `--store`, `MARFA_DB`, else `$XDG_STATE_HOME/verdicts/queue.store`
  /// (`~/.local/state/verdicts/queue.store`).
  public var storePath: String
  /// The instance: `--url`, else `MARFA_API_URL`.
  public var url: String?
  /// `--proxy URL`: the only proxy requests go through. None otherwise: `http_proxy`,
  /// `ALL_PROXY` and their kin are never read (``ignoredProxyVariables``).
  public var proxy: String?
  /// The proxy variables set in the environment, which are not used (named in a warning).
  public var ignoredProxyVariables: [String]
  /// The API key: `--key-file`, `--key` (`-`: standard input), else `MARFA_API_KEY`. Never
  /// printed, never stored. A file or standard input is read by ``readKey(standardInput:)``.
  public var key: String?
  /// `--key-file PATH`: the key is the file's first line.
  public var keyFile: String?
  /// `--key -`: the key is read from standard input.
  public var keyFromStandardInput: Bool
  /// Whether the key itself was given on the command line (where `ps` shows it to every user).
  public var keyOnCommandLine: Bool
  /// Whether output is JSON.
  public var json: Bool
  /// `--reader`: the store is opened to read only (never the writer role, never a new file).
  public var reader: Bool
  /// `--theme`, else `VERDICTS_THEME`.
  public var theme: String?
  /// `--no-color`, or `NO_COLOR` set and not empty.
  public var noColor: Bool
  /// `--ascii`, or a locale that is not UTF-8: glyphs and escapes in ASCII only.
  public var ascii: Bool
  /// `--log FILE`.
  public var logFile: String?

  /// Resolves the parsed globals against `environment`.
  /// How `--json` output escapes strings: nothing that steers a terminal is printed raw, and
  /// outside a UTF-8 locale nothing but ASCII.
  var jsonEscaping: JSONEscaping { ascii ? .ascii : .visible }

  init(_ parsed: ParsedArguments, environment: [String: String]) {
    func env(_ name: String) -> String? {
      guard let value = environment[name], !value.isEmpty else { return nil }
      return value
    }
    storePath = Self.expand(parsed.globals["--store"] ?? env("MARFA_DB") ?? Self.defaultStore(environment), environment)
    url = parsed.globals["--url"] ?? env("MARFA_API_URL")
    proxy = parsed.globals["--proxy"]
    ignoredProxyVariables = Self.proxyVariables.filter { env($0) != nil }
    let keyArgument = parsed.globals["--key"]
    keyFromStandardInput = keyArgument == "-"
    keyOnCommandLine = keyArgument != nil && keyArgument != "-"
    keyFile = parsed.globals["--key-file"].map { Self.expand($0, environment) }
    key = keyFromStandardInput || keyFile != nil ? nil : (keyArgument ?? env("MARFA_API_KEY"))
    json = parsed.globalFlags.contains("--json")
    reader = parsed.globalFlags.contains("--reader")
    theme = parsed.globals["--theme"] ?? env("VERDICTS_THEME")
    noColor = parsed.globalFlags.contains("--no-color") || env("NO_COLOR") != nil
    // Outside a UTF-8 locale every byte printed is ASCII: UTF-8 bytes hold 0x80–0x9F, which an
    // 8-bit terminal reads as C1 controls (CSI among them).
    ascii = parsed.globalFlags.contains("--ascii") || !Sanitizer.localeIsUTF8(environment)
    logFile = parsed.globals["--log"].map { Self.expand($0, environment) }
  }

  /// `$XDG_STATE_HOME/verdicts/queue.store`, or `$HOME/.local/state/verdicts/queue.store`.
  static func defaultStore(_ environment: [String: String]) -> String {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      return state + "/verdicts/queue.store"
    }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? homeFolder()
    return home + "/.local/state/verdicts/queue.store"
  }

  /// The user's home folder from the password database, for when `HOME` is not set.
  static func homeFolder() -> String {
    guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return "/" }
    return String(cString: dir)
  }

  /// `~/x` made absolute against `HOME`.
  static func expand(_ path: String, _ environment: [String: String]) -> String {
    guard path == "~" || path.hasPrefix("~/") else { return path }
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? homeFolder()
    return home + path.dropFirst()
  }

  /// The instance to talk to, or nil when no URL was given; a URL that is not http(s) with a
  /// host, that holds a user name or password, or whose port is not 1–65535 is refused (exit 2),
  /// and so is a key holding a line break or another control character, and a `--proxy` that is
  /// not a proxy URL: all before anything is stored. The scheme and host are taken without case
  /// (`HTTP://Example.org` is `http://example.org`).
  func server() throws -> Server? {
    guard let url else { return nil }
    try InstanceURL.check(url)
    if let proxy { try InstanceURL.checkProxy(proxy) }
    let server = Server(url: InstanceURL.normalized(url), key: key, proxy: proxy.map(InstanceURL.normalized))
    if let refusal = server.refusal {
      throw CommandFailure(code: "usage", message: refusal, exit: .usage)
    }
    return server
  }

  /// The environment variables libcurl would take a proxy from.
  static let proxyVariables = [
    "http_proxy", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "HTTP_PROXY",
  ]
}
