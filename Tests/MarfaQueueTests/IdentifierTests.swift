import Foundation
import TestSupport
import Testing

@testable import MarfaQueue

/// The hand-written timestamp and UUIDv7 (the drain mints one timestamp per write).
@Suite struct IdentifierTests {
  @Test func timestampsReadAsISO8601WithMillisecondsInUTCLikeTheFoundationFormatter() {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    var rng = SeededRandom(seed: 7)
    for _ in 0..<2000 {
      // Whole milliseconds plus 0.4 ms, so cutting and rounding agree.
      let ms = Double(Int64.random(in: 0...4_102_444_800_000, using: &rng))
      let date = Date(timeIntervalSince1970: ms / 1000 + 0.0004)
      #expect(Timestamp.text(date) == f.string(from: date))
    }
    #expect(Timestamp.text(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
  }

  @Test func uuid7IsLowercaseVersion7WithTheVariantBitsAndTheTimeFirst() {
    let date = Date(timeIntervalSince1970: 1_767_225_600.123)
    let id = Identifiers.uuid7(now: date)
    #expect(id.count == 36)
    #expect(UUID(uuidString: id) != nil)
    #expect(id == id.lowercased())
    let parts = id.split(separator: "-")
    #expect(parts.map(\.count) == [8, 4, 4, 4, 12])
    #expect(parts[2].first == "7")
    #expect("89ab".contains(parts[3].first!))
    #expect(String(parts[0] + parts[1]) == String(format: "%012llx", UInt64(1_767_225_600_123)))
  }

  /// Every random bit of a UUIDv7 varies from id to id: each of the ten bytes after the time (its
  /// version and variant bits left out) takes many values over 512 ids of one millisecond.
  @Test func everyRandomByteOfAUuid7VariesFromIdToId() {
    let date = Date(timeIntervalSince1970: 1_767_225_600.123)
    let ids = (0..<512).map { _ in Array(Identifiers.uuid7(now: date).replacingOccurrences(of: "-", with: "").utf8) }
    #expect(Set(ids.map { String(decoding: $0, as: UTF8.self) }).count == 512)
    for byte in 6..<16 {
      let values = Set(ids.map { String(decoding: $0[(2 * byte)..<(2 * byte + 2)], as: UTF8.self) })
      #expect(values.count > (byte == 6 || byte == 8 ? 3 : 100), "byte \(byte)")
    }
  }
}
