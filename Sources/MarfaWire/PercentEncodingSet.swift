/// A set of ASCII bytes that percent-encoding leaves as they are.
public struct PercentEncodingSet: Sendable {
  private var low: UInt64 = 0
  private var high: UInt64 = 0

  /// The set of the given ASCII characters.
  public init(_ characters: String) {
    for byte in characters.utf8 where byte < 128 {
      if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }
  }

  /// Whether `byte` is kept as it is.
  public func contains(_ byte: UInt8) -> Bool {
    if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
    if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
    return false
  }

  /// The set without the given characters.
  public func subtracting(_ characters: String) -> PercentEncodingSet {
    var out = self
    let other = PercentEncodingSet(characters)
    out.low &= ~other.low
    out.high &= ~other.high
    return out
  }

  private static let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

  /// ASCII letters and digits.
  public static let alphanumerics = PercentEncodingSet(letters)
  /// RFC 3986's unreserved characters: letters, digits, `-._~`.
  public static let unreserved = PercentEncodingSet(letters + "-._~")
  /// What a URL's path carries as it is (Foundation's `urlPathAllowed`).
  public static let pathAllowed = PercentEncodingSet(letters + "!$&'()*+,-./:;=@_~")
  /// What a URL's query carries as it is (Foundation's `urlQueryAllowed`).
  public static let queryAllowed = PercentEncodingSet(letters + "!$&'()*+,-./:;=?@_~")
}
