import Foundation

/// Small numeric helpers for the figures.
enum Stats {
  /// The median (the mean of the two middle values for an even count).
  /// The mean (0 for none).
  static func mean(_ values: [Double]) -> Double {
    values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
  }

  /// The standard error of the mean: the sample's standard deviation over √n (0 below two values).
  static func standardError(_ values: [Double]) -> Double {
    guard values.count > 1 else { return 0 }
    let m = mean(values)
    let variance = values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(values.count - 1)
    return (variance / Double(values.count)).squareRoot()
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    let m = s.count / 2
    return s.count % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2
  }

  /// The p-th percentile (nearest rank).
  static func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    let rank = Int((p / 100 * Double(s.count)).rounded(.up))
    return s[min(s.count - 1, max(0, rank - 1))]
  }

  /// A duration in seconds as a Double.
  static func seconds(_ d: Duration) -> Double {
    let c = d.components
    return Double(c.seconds) + Double(c.attoseconds) / 1e18
  }

  /// A number with `digits` decimals.
  static func fixed(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }

  /// A whole number with thin grouping, e.g. 12,345.
  static func whole(_ v: Double) -> String {
    let n = Int(v.rounded())
    let text = String(abs(n))
    var out = ""
    for (i, c) in text.enumerated() {
      if i > 0 && (text.count - i) % 3 == 0 { out += "," }
      out.append(c)
    }
    return (n < 0 ? "-" : "") + out
  }
}
