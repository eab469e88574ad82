import Foundation
import MarfaQueue

/// What a run of `verdicts` did: the exit code and both streams.
struct CommandResult: Sendable, CustomStringConvertible {
  var code: Int32
  var stdout: String
  var stderr: String

  /// Standard output as one JSON value (nil when it is not).
  var json: JSONValue? { JSONValue.parse(stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }

  /// The error envelope on standard error: its last line, as JSON.
  var envelope: JSONValue? {
    let lines = stderr.split(separator: "\n")
    return lines.last.flatMap { JSONValue.parse(String($0)) }
  }

  /// The envelope's `error.code`.
  var errorCode: String? { envelope?["error"]?["code"]?.stringValue }

  var description: String { "exit \(code)\nstdout: \(stdout)\nstderr: \(stderr)" }
}
