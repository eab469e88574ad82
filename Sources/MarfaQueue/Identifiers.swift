import Foundation

/// Mints the ids and keys the queue needs.
enum Identifiers {
  /// A UUIDv7 (time-ordered), lowercase, for device-minted rows and queue ids.
  static func uuid7(now: Date = Date()) -> String {
    var bytes = [UInt8](repeating: 0, count: 16)
    let ms = UInt64(now.timeIntervalSince1970 * 1000)
    for i in 0..<6 { bytes[i] = UInt8((ms >> (8 * (5 - UInt64(i)))) & 0xFF) }
    var rng = SystemRandomNumberGenerator()
    for i in 6..<16 { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
    bytes[6] = (bytes[6] & 0x0F) | 0x70
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let hex = bytes.map { String(format: "%02x", $0) }.joined()
    let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
    return parts.joined(separator: "-")
  }

  /// A fresh idempotency key.
  static func key() -> String { UUID().uuidString.lowercased() }

  /// Now, as ISO-8601 with milliseconds.
  static func now() -> String {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return f.string(from: Date())
  }
}
