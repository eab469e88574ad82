/// Why a scenario could not be loaded.
package enum ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// The text is not JSON.
  case notJSON(source: String, reason: String)
  /// A member is missing or has the wrong shape; `at` names it (`rules[2].answers[0]`).
  case invalid(source: String, at: String, message: String)
  /// No named scenario and no file has that name.
  case unknown(name: String, known: [String])

  package var description: String {
    switch self {
    case .unreadable(let path, let reason): return "cannot read scenario file \(path): \(reason)"
    case .notJSON(let source, let reason): return "scenario \(source) is \(reason)"
    case .invalid(let source, let at, let message): return "scenario \(source): \(at): \(message)"
    case .unknown(let name, let known):
      return "no scenario named \(name) (known: \(known.joined(separator: ", "))) and no such file"
    }
  }
}
