import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// RFC 3339 UTC timestamps with milliseconds, as the instance writes `created_at` and `updated_at`.
enum Timestamp {
  /// The time now, e.g. `2026-05-01T12:00:00.123Z`.
  static func now() -> String { text(Date()) }

  /// The text of a date.
  static func text(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970
    var whole = time_t(seconds.rounded(.down))
    let millis = Int((seconds - Double(whole)) * 1000)
    var parts = tm()
    gmtime_r(&whole, &parts)
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
  }
}
