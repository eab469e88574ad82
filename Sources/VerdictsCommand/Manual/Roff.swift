/// Text made safe for roff (man(7)): backslashes, hyphens, non-ASCII characters and lines that
/// would be read as requests.
enum Roff {
  /// Prose: a backslash is printed as one; the hyphens of a word that starts with `-` (an option:
  /// `--key-file`, `-h`) are minus signs, so the option can be copied; others stay hyphens.
  ///
  /// A span in backticks (`` `verdicts demo` ``) is set in bold as ``code(_:)`` sets it.
  static func text(_ text: String) -> String {
    let spans = text.split(separator: "`", omittingEmptySubsequences: false)
    guard spans.count > 2 else { return prose(text) }
    return guarded(
      spans.enumerated().map { i, span in
        guard i % 2 == 1 else { return prose(String(span)) }
        // A backtick with no partner is kept as typed.
        return i < spans.count - 1 ? bold(minus(escaped(String(span)))) : prose("`" + span)
      }.joined())
  }

  /// Prose without code spans (see ``text(_:)``).
  static func prose(_ text: String) -> String {
    var out = ""
    var word = ""
    func flush() {
      let optionLike = word.drop { "([{'\"`".contains($0) }.hasPrefix("-")
      out += optionLike ? minus(word) : word
      word = ""
    }
    for ch in escaped(text) {
      if ch == " " || ch == "\n" {
        flush()
        out.append(ch)
      } else {
        word.append(ch)
      }
    }
    flush()
    return guarded(out)
  }

  /// Something typed as it stands (a command, an option, a path, an example): every hyphen is a
  /// minus sign.
  static func code(_ text: String) -> String {
    guarded(minus(escaped(text)))
  }

  /// `\fB…\fR`: bold.
  static func bold(_ escapedText: String) -> String { "\\fB\(escapedText)\\fR" }

  /// `\fI…\fR`: italic.
  static func italic(_ escapedText: String) -> String { "\\fI\(escapedText)\\fR" }

  /// A backslash as `\e`, a non-ASCII character as `\[uXXXX]` (read the same with or without preconv).
  static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if scalar == "\\" {
        out += "\\e"
      } else if scalar.value < 0x80 {
        out.unicodeScalars.append(scalar)
      } else {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
      }
    }
    return out
  }

  /// Every `-` as `\-` (in text already escaped, which holds no other `-`).
  static func minus(_ text: String) -> String {
    text.replacing("-", with: "\\-")
  }

  /// Each line that starts with `.` or `'` (a request) starts with `\&` instead.
  static func guarded(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
    }.joined(separator: "\n")
  }
}
