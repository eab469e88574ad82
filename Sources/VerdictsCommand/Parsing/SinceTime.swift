import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The time `history --since` names: an ISO-8601 time in UTC (`2026-12-01T02:00:00Z`, the
/// seconds and the `Z` optional), a day (`2026-12-01`, its midnight in UTC), or a span back
/// from now (`90s`, `30m`, `12h`, `7d`).
enum SinceTime {
  /// The time `text` names as of `now`, or nil when it names none.
  static func parse(_ text: String, now: Date = Date()) -> Date? {
    if let last = text.last, let unit = ["s": 1.0, "m": 60.0, "h": 3_600.0, "d": 86_400.0][String(last)],
      let n = Int(text.dropLast()), n >= 0, n <= 36_500 * 86_400
    {
      return now.addingTimeInterval(-Double(n) * unit)
    }
    var t = text
    if t.hasSuffix("Z") { t.removeLast() }
    let (day, clock) = t.firstIndex(of: "T").map { (String(t[..<$0]), String(t[t.index(after: $0)...])) } ?? (t, "")
    let d = day.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
    guard d.count == 3, let year = d[0], let month = d[1], let mday = d[2], (1970...9999).contains(year),
      (1...12).contains(month), (1...31).contains(mday), day.count == 10
    else { return nil }
    var seconds = 0.0
    if !clock.isEmpty {
      let c = clock.split(separator: ":", omittingEmptySubsequences: false)
      guard (2...3).contains(c.count), let h = Int(c[0]), let m = Int(c[1]), (0...23).contains(h), (0...59).contains(m)
      else { return nil }
      let s = c.count == 3 ? Double(c[2]) : 0
      guard let s, s >= 0, s < 61 else { return nil }
      seconds = Double(h * 3_600 + m * 60) + s
    }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(mday)
    return Date(timeIntervalSince1970: Double(timegm(&parts)) + seconds)
  }
}
