import FoundationEssentials
import MarfaQueue

/// What a command runs with: its arguments, the global options, the environment, the output.
public struct CommandContext: Sendable {
  /// The global options, resolved.
  public var globals: GlobalOptions
  /// The process environment (or a test's).
  public var environment: [String: String]
  /// Where output goes.
  public var output: any CommandOutput
  /// The command's own arguments.
  var arguments: ParsedArguments
  /// The command line as typed, without the program's name (sent to a device as it is).
  var rawArguments: [String] = []

  /// Text from outside (an instance, a file, a person) made safe for a terminal.
  func visible(_ text: String) -> String {
    Sanitizer.clean(text, ascii: globals.ascii)
  }

  /// Prints one JSON value on standard output.
  func printJSON(_ value: JSONValue) {
    output.out(value.text(escaping: globals.jsonEscaping) + "\n")
  }

  /// Prints text lines on standard output.
  func print(_ text: String) {
    output.out(text.hasSuffix("\n") ? text : text + "\n")
  }

  /// Warns on standard error: a sentence, or with `--json` a `{"warning":{code,message}}` line.
  func warn(code: String, _ message: String) {
    if globals.json {
      let json = JSONValue.object([("warning", .object([("code", .string(code)), ("message", .string(message))]))])
      output.err(json.text(escaping: globals.jsonEscaping) + "\n")
    } else {
      output.err("verdicts: warning: \(message)\n")
    }
  }

  /// The instance to talk to; warns when its key would go over plain http to another machine
  /// (or to a proxy named with `--proxy`), and names the environment's proxy variables, which
  /// are not used.
  func server(warnIfClear: Bool) throws -> Server? {
    let server = try globals.server()
    guard warnIfClear, let server else { return server }
    if server.sendsKeyInClear {
      warn(
        code: "key_in_clear",
        "the key goes over plain http to \(visible(server.url)); anyone on the way can read it (use https)")
    }
    if let proxy = server.proxy {
      if server.sendsKeyInClearToProxy {
        warn(
          code: "key_to_proxy",
          "the key goes in the clear to the proxy \(visible(proxy)), which reads every request (use an https proxy)")
      }
    } else if !globals.ignoredProxyVariables.isEmpty {
      warn(
        code: "proxy_ignored",
        "the environment's proxy (\(globals.ignoredProxyVariables.joined(separator: ", "))) is not used: requests go straight to the instance "
          + "(give --proxy URL to go through a proxy)")
    }
    return server
  }

  /// Opens the store as the writer if it is free; creates a missing one only when asked.
  ///
  /// Only a command that talks to the instance is given it (its URL checked, and a warning when
  /// the key would go in the clear); the others never read `--url` or the key.
  ///
  /// A command that may create the store (one that queues, or `fill`) waits a while for a
  /// writer role another process holds, trying again every 25 ms without blocking a thread:
  /// up to ``creationWait`` while another process is making the store, ``writerWait`` while it
  /// holds one that exists (another command's whole run; a TUI holding it is reported soon).
  func open(create: Bool, talksToInstance: Bool = false) async throws -> WorkingCopy {
    // `--reader`: whatever the command, the store is only read; one that changes it is refused.
    if globals.reader { return try await openReader() }
    let server = talksToInstance ? try self.server(warnIfClear: true) : nil
    let store = URL(fileURLWithPath: globals.storePath)
    let started = Date()
    while true {
      let waited = Date().timeIntervalSince(started)
      do {
        let copy = try await WorkingCopy.open(store: store, server: server, create: create)
        // A lock file that is not the store's own, or a file system that refuses it, does not
        // go away by waiting.
        guard create, !copy.handle.isWriter, copy.writerRefusal == nil, waited < Self.writerWait else {
          warnAboutStore(copy)
          // Watchers see which command holds the writer role (`verdicts drain`, `verdicts hold`)
          // once it drains or holds; a command that only queues, or fails, writes no record.
          let mode = arguments.path.isEmpty ? "command" : arguments.path.joined(separator: " ")
          await copy.describeWriter(program: "verdicts", mode: mode, publish: mode == "hold")
          return copy
        }
        copy.close()
      } catch QueueError.readingHandle(let reason) where create {
        // Another process is making the store (it holds the lock, the file is not there yet).
        if waited >= Self.creationWait { throw QueueError.readingHandle(reason: reason) }
      }
      try await Task.sleep(nanoseconds: 25_000_000)
    }
  }

  /// How long a command waits for another process that is making the store.
  static let creationWait: TimeInterval = 10
  /// How long a command that may create the store waits for a writer role held by another.
  static let writerWait: TimeInterval = 3

  /// Opens the store to read only: never the writer role, never a new file. With `warn`, says
  /// once on standard error what others could change of its files (the TUI says it on its
  /// status line instead).
  func openReader(warn: Bool = true) async throws -> WorkingCopy {
    let copy = try await WorkingCopy.openReader(store: URL(fileURLWithPath: globals.storePath))
    if warn { warnAboutStore(copy) }
    return copy
  }

  /// Says each of the store's warnings (``WorkingCopy/storeWarnings``) once on standard error
  /// (`store_open_to_others` with `--json`).
  func warnAboutStore(_ copy: WorkingCopy) {
    for warning in copy.storeWarnings { warn(code: "store_open_to_others", visible(warning)) }
  }
}
