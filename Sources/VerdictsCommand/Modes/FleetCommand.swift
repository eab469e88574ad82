import FoundationEssentials
import MarfaWire
import VerdictsRemote
import VerdictsUI

#if canImport(Glibc)
  import Glibc
#endif

/// `verdicts fleet [HOST…] [--hosts FILE] [--ssh-config-hosts PATTERN] [--plain [--once]]`: many
/// devices' stores at a glance, one ssh connection a device (docs/fleet.md).
enum FleetCommand {
  /// One device as the command line named it: what is shown, and the remote store it reads.
  struct Device: Hashable {
    /// The name shown: the host alone for its default store, else the spec as typed.
    var shown: String
    /// The spec `RemoteStore` reads (`host:` for a bare host).
    var spec: String
  }

  static func run(_ context: CommandContext) async throws -> ExitCode {
    let devices = try self.devices(context)
    let environment = context.environment
    let specs = Dictionary(devices.map { ($0.shown, $0.spec) }, uniquingKeysWith: { a, _ in a })
    let connect: FleetMonitor.Connect = { shown in
      guard let spec = specs[shown], let store = RemoteStore(spec) else {
        throw FleetConnectFailure(message: "not a remote store: \(Sanitizer.clean(shown))")
      }
      do {
        return try RemoteSource(store: store, environment: environment, writer: false, keepalive: .fleet)
      } catch let failure as RemoteSource.LinkFailure {
        throw FleetConnectFailure(message: failure.message)
      }
    }
    let describe: FleetMonitor.Describe = { error in
      if let failure = error as? RemoteSource.LinkFailure { return Sanitizer.clean(failure.message) }
      return Sanitizer.clean(String(describing: error))
    }
    let hosts = devices.map(\.shown)
    if context.arguments.flag("--plain") {
      let output = context.output
      let printer = Task {
        await VerdictsFleet.plain(
          hosts: hosts, connect: connect, describe: describe, emit: { output.out($0 + "\n") },
          once: context.arguments.flag("--once"), ascii: context.globals.ascii)
      }
      if context.arguments.flag("--once") {
        await printer.value
        return .done
      }
      await SignalWait.untilInterrupted(orWhen: { output.isGone() })
      printer.cancel()
      return .done
    }
    do {
      try await VerdictsFleet.run(
        hosts: hosts, connect: connect, describe: describe, options: ScreenCommands.options(context, autoDrain: false))
    } catch let error as AppError {
      throw CommandFailure(code: "usage", message: error.message, exit: .usage)
    }
    return .done
  }

  /// The devices named on the command line, in a file and in the ssh config, in that order,
  /// each once; a usage error (nothing started) for none, a file that cannot be read, or a
  /// name that is no remote store.
  static func devices(_ context: CommandContext) throws -> [Device] {
    func refuse(_ message: String) -> CommandFailure {
      CommandFailure(usage: UsageError(path: ["fleet"], message: message + "; nothing was started"))
    }
    if context.arguments.flag("--once") && !context.arguments.flag("--plain") {
      throw refuse("--once goes with --plain")
    }
    var named: [(word: String, from: String)] = context.arguments.strings("HOST").map { ($0, "the command line") }
    if let file = context.arguments.string("--hosts") {
      let text: String
      do {
        guard let read = try ConfigFile.optionalText(file, what: "hosts file") else {
          throw refuse("--hosts \(context.visible(file)): no such file")
        }
        text = read
      } catch let problem as ConfigFile.Problem {
        throw refuse("--hosts: \(Sanitizer.clean(problem.message))")
      }
      for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let word = String(line).trimmingSpacesAndNewlines()
        if word.isEmpty || word.hasPrefix("#") { continue }
        named.append((word, "\(context.visible(file)):\(n + 1)"))
      }
    }
    if let pattern = context.arguments.string("--ssh-config-hosts") {
      let home = context.environment["HOME"] ?? ""
      let path = home + "/.ssh/config"
      let text: String
      do {
        guard let read = try ConfigFile.optionalText(path, what: "ssh config") else {
          throw refuse("--ssh-config-hosts: \(context.visible(path)) does not exist")
        }
        text = read
      } catch let problem as ConfigFile.Problem {
        throw refuse("--ssh-config-hosts: \(Sanitizer.clean(problem.message))")
      }
      let found = sshConfigHosts(text, matching: pattern)
      if found.isEmpty {
        throw refuse("--ssh-config-hosts \(context.visible(pattern)): no Host name in \(context.visible(path)) matches")
      }
      named += found.map { ($0, context.visible(path)) }
    }
    var seen: Set<String> = []
    var devices: [Device] = []
    for (word, from) in named {
      guard let device = device(word) else {
        throw refuse(
          "\(context.visible(word)) (from \(from)) is not a device: give host, host:path or ssh://[user@]host[:port]/path"
        )
      }
      guard let store = RemoteStore(device.spec) else { continue }
      if seen.insert(store.name + ":" + String(store.port ?? 0)).inserted { devices.append(device) }
    }
    if devices.isEmpty {
      throw refuse("no devices: name them (verdicts fleet HOST…), or give --hosts FILE or --ssh-config-hosts PATTERN")
    }
    return devices
  }

  /// The device a word names, nil when it names none: `host:path`, `ssh://…`, or a bare
  /// host (its default store).
  static func device(_ word: String) -> Device? {
    if word.hasPrefix("-") || word.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } ?? false }) {
      return nil
    }
    if let store = RemoteStore(word) {
      if word.hasPrefix("ssh://") && store.destination.isEmpty { return nil }
      return Device(shown: store.path == nil && store.port == nil ? store.destination : word, spec: word)
    }
    guard !word.isEmpty, !word.contains("/"), !word.contains(":") else { return nil }
    return Device(shown: word, spec: word + ":")
  }

  /// The names of an ssh config's `Host` lines with no wildcard (`*`, `?`, `!`) that `pattern`
  /// (a shell glob) matches, in the file's order.
  static func sshConfigHosts(_ text: String, matching pattern: String) -> [String] {
    var out: [String] = []
    for line in text.split(whereSeparator: \.isNewline) {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "=" })
      guard let first = words.first, first.lowercased() == "host" else { continue }
      for name in words.dropFirst().map(String.init) {
        if name.hasPrefix("#") { break }
        if name.contains(where: { "*?!".contains($0) }) { continue }
        if fnmatch(pattern, name, 0) == 0, !out.contains(name) { out.append(name) }
      }
    }
    return out
  }
}
