extension StaticString {
  /// The literal as a `String`.
  var text: String { withUTF8Buffer { String(decoding: $0, as: UTF8.self) } }
}
