/// Numbers as fixed-point text, without Foundation's `String(format:)`.
extension Double {
  /// The value rounded to `decimals` places, as `%.Nf` prints it (`2.25` to 1 place → `2.3`).
  public func fixed(_ decimals: Int) -> String {
    guard isFinite else { return description }
    var scale = 1.0
    for _ in 0..<max(0, decimals) { scale *= 10 }
    let scaled = (abs(self) * scale).rounded(.toNearestOrAwayFromZero)
    guard scaled < 9e15 else { return description }
    let whole = Int(scaled)
    let negative = self < 0 && whole != 0
    var digits = String(whole)
    if decimals > 0 {
      if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
      digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
    }
    return negative ? "-" + digits : digits
  }
}
