/// One problem in a theme, key or config file, with its line number.
package struct ConfigProblem: Sendable, Hashable, CustomStringConvertible {
  /// The 1-based line.
  public var line: Int
  /// What is wrong, in words.
  public var message: String

  /// Creates a problem.
  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  /// `line 3: unknown role 'foo'`.
  public var description: String { "line \(line): \(message)" }
}
