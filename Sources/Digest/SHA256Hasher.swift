/// SHA-256 over bytes that come in pieces (a file read a chunk at a time), in constant memory: the
/// project's one implementation (``SHA256/digest(_:)`` of bytes held whole goes through it).
public struct SHA256Hasher: Sendable {
  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  /// The running state: eight words, held inline (no array to check and copy on every round).
  private var h0: UInt32 = 0x6a09_e667
  private var h1: UInt32 = 0xbb67_ae85
  private var h2: UInt32 = 0x3c6e_f372
  private var h3: UInt32 = 0xa54f_f53a
  private var h4: UInt32 = 0x510e_527f
  private var h5: UInt32 = 0x9b05_688c
  private var h6: UInt32 = 0x1f83_d9ab
  private var h7: UInt32 = 0x5be0_cd19
  private var pending: [UInt8] = []
  /// How many bytes have been taken.
  public private(set) var count: UInt64 = 0

  /// A hasher that has taken nothing yet.
  public init() {}

  /// Takes the next bytes.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    count &+= UInt64(bytes.count)
    var start = 0
    if !pending.isEmpty {
      let take = min(64 - pending.count, bytes.count)
      pending.append(contentsOf: bytes[0..<take])
      start = take
      if pending.count == 64 {
        let block = pending
        pending.removeAll(keepingCapacity: true)
        block.withUnsafeBytes { compress($0, at: 0) }
      }
    }
    while bytes.count - start >= 64 {
      compress(bytes, at: start)
      start += 64
    }
    if start < bytes.count { pending.append(contentsOf: bytes[start...]) }
  }

  /// Takes the next bytes.
  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// The 32-byte digest of everything taken (the hasher is spent).
  public mutating func finish() -> [UInt8] {
    let bitLength = count &* 8
    // The padding: 0x80, zeros to 56 bytes past a block's start, the length in bits; one block
    // or two, built in place.
    let blocks = pending.count < 56 ? 1 : 2
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
      tail.initialize(repeating: 0)
      for (i, b) in pending.enumerated() { tail[i] = b }
      tail[pending.count] = 0x80
      let end = blocks * 64
      for i in 0..<8 { tail[end - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(8 * i)) }
      let raw = UnsafeRawBufferPointer(tail)
      for block in 0..<blocks { compress(raw, at: block * 64) }
    }
    pending = []
    var digest = [UInt8](repeating: 0, count: 32)
    for (i, v) in [h0, h1, h2, h3, h4, h5, h6, h7].enumerated() {
      digest[4 * i] = UInt8(truncatingIfNeeded: v >> 24)
      digest[4 * i + 1] = UInt8(truncatingIfNeeded: v >> 16)
      digest[4 * i + 2] = UInt8(truncatingIfNeeded: v >> 8)
      digest[4 * i + 3] = UInt8(truncatingIfNeeded: v)
    }
    return digest
  }

  /// The digest as 64 lowercase hex digits (the hasher is spent).
  public mutating func finishHex() -> String {
    let digest = finish()
    return String(unsafeUninitializedCapacity: digest.count * 2) { text in
      for (i, byte) in digest.enumerated() {
        text[2 * i] = Self.hexDigits[Int(byte >> 4)]
        text[2 * i + 1] = Self.hexDigits[Int(byte & 0x0F)]
      }
      return digest.count * 2
    }
  }

  /// The lowercase hex digits, as UTF-8.
  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  private mutating func compress(_ raw: UnsafeRawBufferPointer, at offset: Int) {
    precondition(offset >= 0 && offset + 64 <= raw.count)
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
      Self.k.withUnsafeBufferPointer { k in
        let p = raw.baseAddress! + offset
        for i in 0..<16 {
          let j = i * 4
          w[i] =
            UInt32(p.load(fromByteOffset: j, as: UInt8.self)) << 24
            | UInt32(p.load(fromByteOffset: j + 1, as: UInt8.self)) << 16
            | UInt32(p.load(fromByteOffset: j + 2, as: UInt8.self)) << 8
            | UInt32(p.load(fromByteOffset: j + 3, as: UInt8.self))
        }
        for i in 16..<64 {
          let s0 = Self.rotr(w[i - 15], 7) ^ Self.rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
          let s1 = Self.rotr(w[i - 2], 17) ^ Self.rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
          w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, hh) = (h0, h1, h2, h3, h4, h5, h6, h7)
        for i in 0..<64 {
          let s1 = Self.rotr(e, 6) ^ Self.rotr(e, 11) ^ Self.rotr(e, 25)
          let ch = (e & f) ^ (~e & g)
          let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
          let s0 = Self.rotr(a, 2) ^ Self.rotr(a, 13) ^ Self.rotr(a, 22)
          let maj = (a & b) ^ (a & c) ^ (b & c)
          let t2 = s0 &+ maj
          (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
        }
        h0 = h0 &+ a
        h1 = h1 &+ b
        h2 = h2 &+ c
        h3 = h3 &+ d
        h4 = h4 &+ e
        h5 = h5 &+ f
        h6 = h6 &+ g
        h7 = h7 &+ hh
      }
    }
  }

  private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
