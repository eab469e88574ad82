import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Mints the ids and keys the queue needs.
enum Identifiers {
  /// A UUIDv7 (time-ordered), lowercase, for device-minted rows and queue ids.
  static func uuid7(now: Date = Date()) -> String {
    var bytes = [UInt8](repeating: 0, count: 16)
    let ms = UInt64(now.timeIntervalSince1970 * 1000)
    for i in 0..<6 { bytes[i] = UInt8((ms >> (8 * (5 - UInt64(i)))) & 0xFF) }
    // Two draws of 64 bits, not one a byte: each draw is a `getrandom` call (20 a queued create
    // before, its two ids).
    var rng = SystemRandomNumberGenerator()
    let random: (UInt64, UInt64) = (rng.next(), rng.next())
    withUnsafeBytes(of: random) { bytes.replaceSubrange(6..<16, with: $0.prefix(10)) }
    bytes[6] = (bytes[6] & 0x0F) | 0x70
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    // Hex by hand: String(format:) per byte costs more than the rest of queueing a write.
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(36)
    for (i, b) in bytes.enumerated() {
      if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
      out.append(digits[Int(b >> 4)])
      out.append(digits[Int(b & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A fresh idempotency key.
  static func key() -> String { UUID().uuidString.lowercased() }
}
