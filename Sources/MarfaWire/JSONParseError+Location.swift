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
  ///
  /// Linear in what it shows: at most ``pointerReach`` bytes each side of the place are read,
  /// whatever the line's length (a pasted megabyte on one line), and the head is cut by walking
  /// back from the place once.
  public func pointer(in text: String, ascii: Bool = false, width: Int = 60, indent: String = "  ") -> [String] {
    let bytes = Array(text.utf8)
    let end = min(max(offset, 0), bytes.count)
    var lineStart = end
    while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
    var lineEnd = end
    while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
    // Only what can be shown is read, starting and ending on a character's first byte.
    var headStart = max(lineStart, end - Self.pointerReach)
    while headStart > lineStart, headStart < end, bytes[headStart] & 0xC0 == 0x80 { headStart += 1 }
    var tailEnd = min(lineEnd, end + Self.pointerReach)
    while tailEnd < lineEnd, tailEnd > end, bytes[tailEnd] & 0xC0 == 0x80 { tailEnd -= 1 }
    let visible = { (part: ArraySlice<UInt8>) -> [String] in
      String(decoding: part, as: UTF8.self).map { Sanitizer.clean(String($0), ascii: ascii) }
    }
    let head = visible(bytes[headStart..<end])
    var tail = visible(bytes[end..<tailEnd])
    if tail.isEmpty { tail = [""] }  // The text ended here: the caret points just past it.
    let cut = ascii ? "..." : "…"
    let room = max(width, 20)
    var headText = head.joined()
    if headStart > lineStart || headText.count > room * 2 / 3 {
      // The characters nearest the place that fit, walking back from it.
      var kept: [String] = []
      var used = 0
      for piece in head.reversed() {
        used += piece.count
        if used > room * 2 / 3 - cut.count { break }
        kept.append(piece)
      }
      headText = cut + kept.reversed().joined()
    }
    var tailText = tail.joined()
    let tailRoom = max(room - headText.count, 1)
    if tailEnd < lineEnd || tailText.count > tailRoom {
      var kept = ""
      var used = 0
      for piece in tail {
        used += piece.count
        if used > tailRoom - cut.count { break }
        kept += piece
      }
      tailText = (kept.isEmpty ? tail[0] : kept) + cut
    }
    let caretAt = headText.count
    return [indent + headText + tailText, indent + String(repeating: " ", count: caretAt) + "^"]
  }

  /// How many bytes of the line on each side of the place ``pointer(in:ascii:width:indent:)`` reads.
  static let pointerReach = 4096
}
