extension JSONParseError {
  /// Where reading stopped as a person counts it: line and column from 1, the column in characters.
  public func location(in text: String) -> (line: Int, column: Int) {
    let bytes = Array(text.utf8)
    let end = min(max(offset, 0), bytes.count)
    var line = 1
    var lineStart = 0
    for i in 0..<end where bytes[i] == UInt8(ascii: "\n") {
      line += 1
      lineStart = i + 1
    }
    let before = String(decoding: bytes[lineStart..<end], as: UTF8.self)
    return (line, before.count + 1)
  }

  /// The line where reading stopped, made safe to print and cut to about `width` characters around the
  /// place, and under it a caret at that character: two lines, each indented by `indent`.
  public func pointer(in text: String, ascii: Bool = false, width: Int = 60, indent: String = "  ") -> [String] {
    let bytes = Array(text.utf8)
    let end = min(max(offset, 0), bytes.count)
    var lineStart = end
    while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
    var lineEnd = end
    while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
    let visible = { (part: ArraySlice<UInt8>) -> [String] in
      String(decoding: part, as: UTF8.self).map { Sanitizer.clean(String($0), ascii: ascii) }
    }
    var head = visible(bytes[lineStart..<end])
    var tail = visible(bytes[end..<lineEnd])
    if tail.isEmpty { tail = [""] }  // The text ended here: the caret points just past it.
    let cut = ascii ? "..." : "…"
    let room = max(width, 20)
    var headText = head.joined()
    if headText.count > room * 2 / 3 {
      while head.joined().count > room * 2 / 3 - cut.count { head.removeFirst() }
      headText = cut + head.joined()
    }
    var tailText = tail.joined()
    let tailRoom = max(room - headText.count, 1)
    if tailText.count > tailRoom {
      var kept = ""
      for piece in tail {
        if kept.count + piece.count > tailRoom - cut.count { break }
        kept += piece
      }
      tailText = (kept.isEmpty ? tail[0] : kept) + cut
    }
    let caretAt = headText.count
    return [indent + headText + tailText, indent + String(repeating: " ", count: caretAt) + "^"]
  }
}
