/// An output kept in memory never fails: these are its answers.
extension CommandOutput {
  /// No failure.
  public var outFailure: OutputFailure? { nil }

  /// Throws the first failure, if any; nothing else to do for an output that cannot fail.
  public func deliver() throws {
    if let outFailure { throw outFailure }
  }

  /// Gone only after a failure.
  public func isGone() -> Bool { outFailure != nil }
}
