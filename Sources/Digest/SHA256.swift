/// SHA-256 (FIPS 180-4), small and plain: uploaded bytes are named by it, by the queue and the instance alike.
///
/// One implementation: the digest of bytes held whole goes through ``SHA256Hasher``, which also
/// takes bytes that come in pieces.
public enum SHA256 {
  /// The digest of `bytes` as 64 lowercase hex digits.
  public static func hex(_ bytes: [UInt8]) -> String {
    var hasher = SHA256Hasher()
    hasher.update(bytes)
    return hasher.finishHex()
  }

  /// The 32-byte digest of `bytes`.
  public static func digest(_ bytes: [UInt8]) -> [UInt8] {
    var hasher = SHA256Hasher()
    hasher.update(bytes)
    return hasher.finish()
  }
}
