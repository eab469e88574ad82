/// The parts of a file path, without Foundation's `NSString`.
extension StringProtocol {
  /// The last part of the path (`/a/b.theme` → `b.theme`; a trailing `/` is ignored).
  public var lastPathPart: String {
    var text = Substring(self)
    while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
    guard let slash = text.lastIndex(of: "/") else { return String(text) }
    return text == "/" ? "/" : String(text[text.index(after: slash)...])
  }

  /// The text without its last extension (`b.theme` → `b`; `.hidden` stays as it is).
  public var droppingPathExtension: String {
    guard let dot = lastIndex(of: "."), dot != startIndex, !self[dot...].contains("/") else { return String(self) }
    return String(self[..<dot])
  }

  /// The last extension, without its dot (`b.theme` → `theme`; none → "").
  public var pathExtension: String {
    guard let dot = lastIndex(of: "."), dot != startIndex, !self[dot...].contains("/") else { return "" }
    return String(self[index(after: dot)...])
  }
}
