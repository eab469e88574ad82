/// Makes text from an instance safe to print: control, escape and direction-changing
/// characters are shown, never written raw.
///
/// C0 controls and DEL become their Unicode control pictures (`␛`, `␊`, `␡`); C1 controls,
/// bidirectional overrides and isolates, and invisible separators become `\u{202e}`-style
/// escapes. With `ascii`, C0 controls become `\u{1b}`-style escapes too.
enum TextSanitizer {
  /// `text` with every unsafe character made visible.
  static func visible(_ text: String, ascii: Bool = false) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let v = scalar.value
      if v < 0x20 || v == 0x7F {
        if ascii {
          out.append(contentsOf: escaped(v).unicodeScalars)
        } else {
          out.append(Unicode.Scalar(v == 0x7F ? 0x2421 : 0x2400 + v)!)
        }
      } else if isHidden(v) {
        out.append(contentsOf: escaped(v).unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// Whether the scalar changes how the rest of the line shows, or shows as nothing.
  static func isHidden(_ v: UInt32) -> Bool {
    switch v {
    case 0x80...0x9F,  // C1 controls (CSI among them)
      0x200B...0x200F,  // zero-width space, joiners, direction marks
      0x2028, 0x2029,  // line and paragraph separators
      0x202A...0x202E,  // embeddings and overrides
      0x2060...0x2064,  // word joiner, invisible operators
      0x2066...0x2069,  // isolates
      0xFEFF,  // byte-order mark
      0xFFF9...0xFFFB:  // interlinear annotation
      return true
    default:
      return false
    }
  }

  static func escaped(_ v: UInt32) -> String {
    "\\u{" + String(v, radix: 16) + "}"
  }
}
