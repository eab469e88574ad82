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
    // Twenty-four bytes written in place (`YYYY-MM-DDTHH:MM:SS.mmmZ`): no string per field.
    return String(unsafeUninitializedCapacity: 24) { out in
      func put(_ n: Int, _ width: Int, at start: Int) {
        var v = n
        for i in stride(from: start + width - 1, through: start, by: -1) {
          out[i] = UInt8(ascii: "0") + UInt8(v % 10)
          v /= 10
        }
      }
      put(Int(parts.tm_year) + 1900, 4, at: 0)
      out[4] = UInt8(ascii: "-")
      put(Int(parts.tm_mon) + 1, 2, at: 5)
      out[7] = UInt8(ascii: "-")
      put(Int(parts.tm_mday), 2, at: 8)
      out[10] = UInt8(ascii: "T")
      put(Int(parts.tm_hour), 2, at: 11)
      out[13] = UInt8(ascii: ":")
      put(Int(parts.tm_min), 2, at: 14)
      out[16] = UInt8(ascii: ":")
      put(Int(parts.tm_sec), 2, at: 17)
      out[19] = UInt8(ascii: ".")
      put(ms, 3, at: 20)
      out[23] = UInt8(ascii: "Z")
      return 24
    }
  }

  /// The time a clock text names (`2026-05-01T12:00:00.123Z`, as ``text(_:)`` writes it; the
  /// fraction and the `Z` optional, years 1970 to 9999), or nil for any other text.
  public static func date(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 19, bytes.count <= 40, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
    else { return nil }
    func number(_ from: Int, _ count: Int) -> Int? {
      var n = 0
      for b in bytes[from..<from + count] {
        guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
        n = n * 10 + Int(b - UInt8(ascii: "0"))
      }
      return n
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
      let minute = number(14, 2), let second = number(17, 2), (1970...9999).contains(year), (1...12).contains(month),
      (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var rest = bytes[19...]
    var fraction = 0.0
    if rest.first == UInt8(ascii: ".") {
      rest = rest.dropFirst()
      var scale = 0.1
      while let b = rest.first, b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") {
        fraction += Double(b - UInt8(ascii: "0")) * scale
        scale /= 10
        rest = rest.dropFirst()
      }
    }
    if rest.first == UInt8(ascii: "Z") { rest = rest.dropFirst() }
    guard rest.isEmpty else { return nil }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(second)
    return Date(timeIntervalSince1970: Double(timegm(&parts)) + fraction)
  }
}
