import Digest
import Testing

/// The streaming hasher gives the one-shot digest whatever the pieces.
@Suite struct SHA256HasherTests {
  @Test func piecesOfAnySizeGiveTheDigestOfTheWhole() {
    var bytes: [UInt8] = []
    for i in 0..<1_000 { bytes.append(UInt8(truncatingIfNeeded: i &* 131 &+ 17)) }
    for cut in [0, 1, 55, 56, 63, 64, 65, 127, 128, 500, 999, 1_000] {
      for step in [1, 7, 64, 333, 1_000] {
        var hasher = SHA256Hasher()
        hasher.update(Array(bytes[0..<cut]))
        var i = cut
        while i < bytes.count {
          let end = min(i + step, bytes.count)
          hasher.update(Array(bytes[i..<end]))
          i = end
        }
        #expect(hasher.finishHex() == SHA256.hex(bytes), "cut \(cut) step \(step)")
      }
    }
    var empty = SHA256Hasher()
    #expect(empty.finishHex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  }
}
