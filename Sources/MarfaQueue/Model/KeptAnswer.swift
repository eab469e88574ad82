import Digest

/// What the store keeps of an instance's answer: the whole of it when it is small, else its first
/// part, its size and its hash. A Marfa answer is a few kilobytes; a refusal of tens of
/// megabytes stored whole (and read again by every screen that shows it) made a 601 MB store and
/// an 8-second detail pane. The client already cuts any answer past ``ResponseLimits``; this bounds
/// what stays in the queue row.
enum KeptAnswer {
  /// The most bytes of an answer kept: a refusal envelope many times over.
  static let keptBytes = 64 * 1024
  /// The most characters of a refusal's reason, code or message, or of one field's name or
  /// message, kept in the refusal (an envelope's parts are words and sentences, not pages).
  static let messageCharacters = 8_192
  /// The most field refusals kept of one answer.
  static let fieldCount = 200

  /// The answer as stored: its text (cut past ``keptBytes`` at a character boundary, with a
  /// closing note giving its size and SHA-256), or a note for bytes that are not UTF-8.
  static func text(of body: [UInt8]) -> String {
    if body.count <= keptBytes {
      return String(utf8: body) ?? "<\(body.count) bytes, not UTF-8>"
    }
    let note = "[\(body.count) bytes in all, sha256 \(SHA256.hex(body))]"
    // The longest prefix within the limit that ends on a whole character (at most 3 bytes back).
    for end in stride(from: keptBytes, through: keptBytes - 3, by: -1) {
      if let head = String(utf8: body[0..<end]) { return head + "… " + note }
    }
    return "<\(body.count) bytes, not UTF-8> " + note
  }

  /// Text cut to `limit` characters, with an ellipsis and the full length when cut.
  static func bounded(_ text: String, limit: Int = messageCharacters) -> String {
    guard text.utf8.count > limit else { return text }
    let scalars = text.unicodeScalars
    guard scalars.count > limit else { return text }
    var out = String.UnicodeScalarView(scalars.prefix(limit))
    out.append(contentsOf: "… [\(scalars.count) characters in all]".unicodeScalars)
    return String(out)
  }
}
