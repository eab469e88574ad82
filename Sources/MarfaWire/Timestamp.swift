import FoundationEssentials

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The one clock text of the project: RFC 3339 / ISO-8601 in UTC with milliseconds, as the queue
/// stores `queued_at` and `answered_at`, the instance writes `created_at`, and logs stamp lines
/// (`2026-05-01T12:00:00.123Z`).
public enum Timestamp {
  /// The time now, e.g. `2026-05-01T12:00:00.123Z`.
  public static func now() -> String { text(Date()) }

  /// `date` in UTC with milliseconds, the milliseconds cut (not rounded).
  ///
  /// Written by hand: an `ISO8601DateFormatter` made per call costs about 0.2 ms on Linux
  /// (it builds an ICU formatter), which the drain paid once per write.
  public static func text(_ date: Date) -> String {
    // Years 0000 to 9999 only: a time past them (a damaged store's) is written as the nearest
    // end (a larger one would trap in the conversion to time_t).
    let raw = date.timeIntervalSince1970
    let t = raw.isFinite ? min(max(raw, -62_167_219_200), 253_402_300_799.999) : 0
    var seconds = time_t(t.rounded(.down))
    let ms = min(999, max(0, Int((t - Double(seconds)) * 1000)))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ n: Int, _ width: Int) -> String {
      let s = String(n)
      return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
    return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
      + "T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(ms, 3))Z"
  }
}
