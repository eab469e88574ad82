/// One section of the bench. A new section (`panes`, `bytes`, `watch`) is a type conforming to
/// this, added to ``BenchOptions/available``.
protocol Benchmark: Sendable {
  /// The section name on the command line.
  var name: String { get }
  /// One line saying what it measures.
  var summary: String { get }
  /// Runs every round and returns the lines to print and whether its targets were met.
  func run(_ options: BenchOptions) async throws -> BenchOutcome
  /// A diagnostic section: its figures are printed, its targets do not decide the exit.
  var diagnostic: Bool { get }
}

extension Benchmark {
  var diagnostic: Bool { false }
}

/// What a section printed and whether it met its targets.
struct BenchOutcome {
  var lines: [String]
  var metTargets: Bool
}

/// A failure that stops a section: the setup or a round went wrong.
struct BenchFailure: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
