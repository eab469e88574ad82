import FoundationEssentials
import MarfaQueue

/// A command that did not do what was asked: a stable code, a sentence, an exit code.
///
/// Printed as `{"error":{"code","message","server","retry_after_seconds"},"exit":N}` on
/// standard error with `--json`, as one sentence without.
struct CommandFailure: Error, Sendable, Hashable {
  /// The instance's part of a refusal.
  struct ServerPart: Sendable, Hashable {
    var status: Int
    var code: String?
    var details: JSONValue?
  }

  /// The stable snake_case code (`usage`, `no_store`, `reading_handle`, …).
  var code: String
  /// One plain sentence.
  var message: String
  /// How the process exits.
  var exit: ExitCode
  /// What the instance said, when it refused.
  var server: ServerPart? = nil
  /// How long the instance asked to wait, when it did.
  var retryAfterSeconds: Int? = nil

  /// A usage error from the parser, naming the command and pointing to its help.
  init(usage: UsageError) {
    let name = (["verdicts"] + usage.path).joined(separator: " ")
    let within = usage.path.isEmpty ? "" : usage.path.joined(separator: " ") + ": "
    // A message of several lines (bad JSON with its caret) keeps the pointer to help on its first line.
    var lines = usage.message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[0] = "\(within)\(lines[0]) (see '\(name) --help')"
    self.init(code: "usage", message: lines.joined(separator: "\n"), exit: .usage)
  }

  init(code: String, message: String, exit: ExitCode, server: ServerPart? = nil, retryAfterSeconds: Int? = nil) {
    self.code = code
    self.message = message
    self.exit = exit
    self.server = server
    self.retryAfterSeconds = retryAfterSeconds
  }

  /// The failure a queue error means, with its exit code.
  init(_ error: QueueError) {
    let exit: ExitCode
    var server: ServerPart?
    switch error {
    case .server(let status, let code, _):
      exit = .refused
      server = ServerPart(status: status, code: code, details: nil)
    case .redirected(let status, _, _):
      // Refused as the contract's command refuses it: exit 1, the 3xx as the server's part.
      exit = .refused
      server = ServerPart(status: status, code: nil, details: nil)
    case .contractMismatch, .rootContractMismatch, .contractBroken:
      exit = .refused
    case .noStore, .noServer, .ambiguousID:
      exit = .usage
    case .network, .storageFull, .store, .closed, .canceled:
      exit = .environment
    case .readingHandle, .hydrationIncomplete, .copyExpired, .noCursor, .notFound, .unknownID, .rowNotFound,
      .wrongSchema, .unknownSchema, .invalid:
      exit = .deviceRule
    }
    var message = error.message
    // The engine names no flag; the command line says where an instance URL comes from.
    if case .noServer = error { message += " (--url or MARFA_API_URL)" }
    // No store yet: the next step, for a person trying verdicts for the first time.
    if case .noStore = error {
      message +=
        "; `verdicts demo` shows the tour on a scripted instance, `verdicts fill --url URL` makes one from an instance"
    }
    self.init(code: error.code, message: message, exit: exit, server: server)
  }

  /// The failure any error means; errors from outside the queue count as the environment's.
  init(any error: any Error) {
    switch error {
    case let failure as CommandFailure: self = failure
    case let queue as QueueError: self.init(queue)
    case let usage as UsageError: self.init(usage: usage)
    default: self.init(code: "io", message: "\(error)", exit: .environment)
    }
  }

  /// How a drain that ran ends: nil when it is done (whatever the verdicts), exit 5 when a
  /// refused key stopped it, exit 3 when it ended unavailable or left writes undelivered.
  init?(drained report: DrainReport) {
    if let stopped = report.stopped {
      self.init(
        code: "unauthorized", message: "the drain stopped: \(stopped)", exit: .credential,
        retryAfterSeconds: report.retryAfterSeconds)
    } else if report.unavailable != nil || report.undelivered > 0 {
      let why = report.unavailable.map { ": \($0)" } ?? ""
      self.init(
        code: "network", message: "\(report.undelivered) write(s) left undelivered\(why)", exit: .environment,
        retryAfterSeconds: report.retryAfterSeconds)
    } else {
      return nil
    }
  }

  /// The JSON envelope for standard error.
  var envelope: JSONValue {
    let serverJSON: JSONValue =
      server.map {
        .object([
          ("status", .int($0.status)), ("code", $0.code.map(JSONValue.string) ?? .null),
          ("details", $0.details ?? .null),
        ])
      } ?? .null
    return .object([
      (
        "error",
        .object([
          ("code", .string(code)), ("message", .string(message)), ("server", serverJSON),
          ("retry_after_seconds", retryAfterSeconds.map { .int($0) } ?? .null),
        ])
      ),
      ("exit", .int(Int(exit.rawValue))),
    ])
  }
}
