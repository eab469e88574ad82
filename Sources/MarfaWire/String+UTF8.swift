#if canImport(Glibc)
  import Glibc
#endif

/// Reading UTF-8 bytes as text, refusing what is not UTF-8, at the cost of one decoding.
///
/// The standard library's `String(validating:as:)` is generic and is not specialized for the
/// callers here: each call looked up type metadata at run time, which cost more than the
/// decoding itself for the short strings of a JSON answer (every name and value of it).
extension String {
  /// The text `bytes` spell, or nil when they are not UTF-8 (as `String(validating:as:)` judges).
  public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
    var decoded = String(decoding: bytes, as: UTF8.self)
    // Decoding repairs each ill-formed sequence with U+FFFD: the bytes come back unchanged only
    // when there was none.
    let same = decoded.withUTF8 { text in
      text.count == bytes.count && (text.isEmpty || memcmp(text.baseAddress!, bytes.baseAddress!, text.count) == 0)
    }
    guard same else { return nil }
    self = decoded
  }

  /// The text `bytes` spell, or nil when they are not UTF-8.
  public init?(utf8 bytes: [UInt8]) {
    guard let s = bytes.withUnsafeBufferPointer({ String(utf8: $0) }) else { return nil }
    self = s
  }

  /// The text `bytes` spell, or nil when they are not UTF-8.
  public init?(utf8 bytes: ArraySlice<UInt8>) {
    guard let s = bytes.withUnsafeBufferPointer({ String(utf8: $0) }) else { return nil }
    self = s
  }
}
