/// Trimming without Foundation's character sets.
extension StringProtocol {
  /// The text without the spaces and tabs (any Unicode horizontal white space) at either end.
  public func trimmingSpaces() -> String {
    trimming { $0.isWhitespace && !$0.isNewline }
  }

  /// The text without white space or line breaks at either end.
  public func trimmingSpacesAndNewlines() -> String {
    trimming { $0.isWhitespace }
  }

  private func trimming(_ drop: (Character) -> Bool) -> String {
    guard let first = firstIndex(where: { !drop($0) }) else { return "" }
    let last = lastIndex(where: { !drop($0) })!
    return String(self[first...last])
  }
}
