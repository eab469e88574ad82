/// Percent-encoding (RFC 3986) without Foundation's character sets: every UTF-8 byte outside
/// the kept set becomes `%XX`, upper-case hex.
extension StringProtocol {
  /// The text with every byte that `keep` refuses percent-encoded.
  public func percentEncoded(keeping keep: PercentEncodingSet) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count)
    let hex = Array("0123456789ABCDEF".utf8)
    for byte in utf8 {
      if keep.contains(byte) {
        out.append(byte)
      } else {
        out.append(UInt8(ascii: "%"))
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0x0F)])
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}

extension StringProtocol {
  /// The text with its `%XX` escapes decoded, or nil when an escape is not two hex digits or
  /// the bytes are not UTF-8 (as Foundation's `removingPercentEncoding`).
  public func percentDecoded() -> String? {
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count)
    var bytes = utf8.makeIterator()
    func hexValue(_ b: UInt8?) -> UInt8? {
      switch b {
      case .some(let c) where c >= 0x30 && c <= 0x39: return c - 0x30
      case .some(let c) where c >= 0x41 && c <= 0x46: return c - 0x41 + 10
      case .some(let c) where c >= 0x61 && c <= 0x66: return c - 0x61 + 10
      default: return nil
      }
    }
    while let byte = bytes.next() {
      guard byte == UInt8(ascii: "%") else {
        out.append(byte)
        continue
      }
      guard let high = hexValue(bytes.next()), let low = hexValue(bytes.next()) else { return nil }
      out.append(high << 4 | low)
    }
    return String(validating: out, as: UTF8.self)
  }
}
