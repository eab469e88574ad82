import MarfaQueue

/// The detail's body and answer laid out in bounded time and memory, whatever a store holds:
/// at most ``detailLineLimit`` lines of each, at most ``QueueLimits/shownAnswer``
/// characters of an answer, and a last line saying how much more there is.
extension Renderer {
  /// Lines of a body or an answer laid out (before wrapping).
  static let detailLineLimit = 2_000
  /// Lines of the body and answer after wrapping.
  static let detailWrappedLimit = 10_000

  /// The body's lines: its JSON, or, for a payload too large to read (``QueuedWrite/bodyBytes``), its size.
  func bodyLines(_ w: QueuedWrite) -> [TextLine] {
    if let n = w.bodyBytes {
      return [
        TextLine(
          "  (a payload of \(Self.bytesText(n)): too large to lay out here; `verdicts show --json ID` prints it whole)",
          .dim)
      ]
    }
    return JSONLines.lines(w.body, indent: 2, limit: Self.detailLineLimit)
  }

  /// The answer's lines: its JSON when it is whole and readable, else its start as text, with
  /// how much of `storedBytes` (the whole answer's size, when only its start was read) is left out.
  func answerLines(_ answer: String, storedBytes: Int?) -> [TextLine] {
    let limit = QueueLimits.shownAnswer
    let bytes = answer.utf8.count
    if storedBytes == nil, bytes <= limit, let json = JSONValue.parse(answer) {
      return JSONLines.lines(json, indent: 2, limit: Self.detailLineLimit)
    }
    let head = bytes > limit ? String(decoding: answer.utf8.prefix(limit), as: UTF8.self) : answer
    let all = Sanitizer.lines(head)
    var lines = all.prefix(Self.detailLineLimit).map { TextLine("  " + $0) }
    let shown = head.utf8.count
    let total = max(storedBytes ?? bytes, bytes)
    if total > shown || all.count > Self.detailLineLimit {
      lines.append(
        TextLine(
          "  … \(Self.bytesText(max(0, total - shown))) more not shown (the answer is \(Self.bytesText(total)); "
            + "`verdicts show --json ID` prints it whole)", .dim))
    }
    return lines
  }

  /// The lines wrapped at `width`, at most ``detailWrappedLimit`` of them.
  func wrappedBounded(_ lines: [TextLine], width: Int) -> [TextLine] {
    var out: [TextLine] = []
    for line in lines {
      out += line.wrapped(width, indent: 4)
      if out.count >= Self.detailWrappedLimit {
        out.removeLast(out.count - Self.detailWrappedLimit)
        out.append(TextLine("  … the rest is not shown", .dim))
        break
      }
    }
    return out
  }

  /// `812 B`, `64.0 KiB`, `100.0 MiB`.
  static func bytesText(_ n: Int) -> String {
    if n < 1024 { return "\(n) B" }
    if n < 1 << 20 { return (Double(n) / 1024).fixed(1) + " KiB" }
    if n < 1 << 30 { return (Double(n) / 1_048_576).fixed(1) + " MiB" }
    return (Double(n) / 1_073_741_824).fixed(1) + " GiB"
  }
}
