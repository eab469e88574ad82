/// A JSON value inside another Codable value travels as its own JSON text, in one string: its
/// members keep their order and its numbers their digits, which a keyed container would not.
extension JSONValue: Codable {
  /// Reads the value from the JSON text a string holds.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let value = JSONValue.parse(text) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not JSON text"))
    }
    self = value
  }

  /// Writes the value as its JSON text, in one string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
  }
}
