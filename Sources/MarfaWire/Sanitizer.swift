import FoundationEssentials

/// Makes text from an instance, a gateway or a store safe to draw: every control, escape,
/// bidirectional-override and invisible formatting character becomes visible text.
///
/// - C0 controls become control pictures (ESC → `␛`, NUL → `␀`, LF → `␊`, TAB → `␉`), DEL → `␡`.
/// - C1 controls, bidi embeddings, overrides and isolates (U+202E …), other format characters
///   (zero-width spaces and joiners, BOM, soft hyphen), line and paragraph separators and
///   noncharacters become `\u{…}` text.
/// - In ASCII form (`--ascii`, or a terminal whose locale is not UTF-8), C0 controls and DEL
///   become `\u{001b}`-style text too, and so does every other character outside ASCII: the
///   UTF-8 bytes of `␛` or `Л` hold 0x9B, which an 8-bit terminal reads as CSI.
///
/// This is the project's one policy for text that reaches a person: the screen, the command
/// line's output, `watch --plain`, the log and (through ``JSONEscaping/visible``) `--json`.
public enum Sanitizer {
  /// A run of sanitized text: either shown as given, or a made-visible stand-in.
  public struct Segment: Sendable, Hashable {
    /// The text to draw.
    public var text: String
    /// Whether this run stands in for a character that was not drawn raw.
    public var escaped: Bool
  }

  /// The text with every unsafe character made visible.
  public static func clean(_ text: String) -> String {
    if isSafe(text) { return text }
    return segments(text).map(\.text).joined()
  }

  /// The text made visible, in ASCII only when `ascii` is set.
  public static func clean(_ text: String, ascii: Bool) -> String {
    guard ascii else { return clean(text) }
    if !text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) { return text }
    var out = ""
    for s in text.unicodeScalars {
      if s.value < 0x20 || s.value >= 0x7F {
        out += escape(s.value)
      } else {
        out.unicodeScalars.append(s)
      }
    }
    return out
  }

  /// Whether a terminal with this environment's locale shows UTF-8 (`LC_ALL`, else `LC_CTYPE`,
  /// else `LANG`, naming UTF-8); unset means the C locale, which is ASCII.
  public static func localeIsUTF8(_ environment: [String: String]) -> Bool {
    let name =
      [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]]
      .compactMap { $0 }.first { !$0.isEmpty } ?? ""
    let lower = name.lowercased()
    return lower.contains("utf-8") || lower.contains("utf8")
  }

  /// Whether the text can be drawn as it is.
  public static func isSafe(_ text: String) -> Bool {
    for b in text.utf8 where b < 0x20 || b >= 0x7F {
      // Not plain printable ASCII: look at the scalars.
      for s in text.unicodeScalars where replacement(s) != nil { return false }
      return true
    }
    return true
  }

  /// The text split into runs drawn as given and runs made visible.
  public static func segments(_ text: String) -> [Segment] {
    if isSafe(text) { return text.isEmpty ? [] : [Segment(text: text, escaped: false)] }
    var out: [Segment] = []
    var plain = String.UnicodeScalarView()
    for s in text.unicodeScalars {
      if let r = replacement(s) {
        if !plain.isEmpty {
          out.append(Segment(text: String(plain), escaped: false))
          plain = String.UnicodeScalarView()
        }
        out.append(Segment(text: r, escaped: true))
      } else {
        plain.append(s)
      }
    }
    if !plain.isEmpty { out.append(Segment(text: String(plain), escaped: false)) }
    return out
  }

  /// Lines of text, each sanitized (a line feed, CR LF or lone CR ends a line).
  public static func lines(_ text: String) -> [String] {
    let normalized = text.replacing("\r\n", with: "\n")
    return normalized.split(separator: "\n", omittingEmptySubsequences: false).map { clean(String($0)) }
  }

  /// What a scalar is drawn as, or nil when it is drawn as it is.
  public static func replacement(_ s: Unicode.Scalar) -> String? {
    let v = s.value
    if v < 0x20 { return String(Unicode.Scalar(0x2400 + v)!) }
    if v == 0x7F { return "␡" }
    if v < 0xA0 {
      return v >= 0x80 ? escape(v) : nil
    }
    if v == 0xAD { return escape(v) }
    if v < 0x300 { return nil }
    switch v {
    case 0x061C, 0x180E, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF, 0xFFF9...0xFFFB:
      return escape(v)
    case 0xFFFE, 0xFFFF, 0xE0000...0xE007F:
      return escape(v)
    default:
      break
    }
    if v & 0xFFFE == 0xFFFE { return escape(v) }
    if s.properties.generalCategory == .format { return escape(v) }
    return nil
  }

  static func escape(_ v: UInt32) -> String {
    let hex = String(v, radix: 16)
    return "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
  }
}
