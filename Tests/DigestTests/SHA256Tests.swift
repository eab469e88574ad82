import Digest
import Foundation
import Testing

/// SHA-256 against the standard test vectors (FIPS 180-2), one block and many.
@Suite struct SHA256Tests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  func digestsMatchTheStandardVectors(input: String, hex: String) {
    #expect(SHA256.hex(Array(input.utf8)) == hex)
  }

  @Test func aMillionAsDigestsAcrossManyBlocks() {
    #expect(
      SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// Lengths either side of where the padding needs a second block (55/56, 119/120 bytes) and of a
  /// block's end (63/64/65); the digests are Python's `hashlib.sha256` of bytes `(i * 7) % 256`.
  @Test(arguments: [
    (55, "576a1bf8d4478657e6dc4af9398544765c2a92cde28478b019235cfed315fc09"),
    (56, "9b20501dfd1d99161c257950f3444f3e49230c351c5c8e0943ef369f85f5205d"),
    (63, "30b345906b493f06f69444b6521113511c242f30e29840462950035043682f1e"),
    (64, "d8bc63b4fc1156e5e7d95a418b9bf54cd3174bedbc2db40f74895349b229b3c0"),
    (65, "1ee23b0fbcaecc1aff4a9e8f1645f35ab2c8e13609cd73b68df8b5e3f63ce073"),
    (119, "7a6589821178918ca8d9edaba5abfc1e9b2669564f4469b66885379c1530b2c8"),
    (120, "655250427d56b1b0eeb8497d21428704273458a01772d6881b65c0abac0f8a98"),
  ])
  func paddingIsRightAtEveryBlockBoundary(length: Int, hex: String) {
    let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7) }
    #expect(SHA256.hex(bytes) == hex)
  }

  @Test func theDigestIsThirtyTwoBytesThatTheHexSpellsOut() {
    let bytes = SHA256.digest(Array("abc".utf8))
    #expect(bytes.count == 32)
    #expect(bytes.map { String(format: "%02x", $0) }.joined() == SHA256.hex(Array("abc".utf8)))
  }
}
