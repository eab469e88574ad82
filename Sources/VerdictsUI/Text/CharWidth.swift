/// Column widths of characters, as a terminal draws them (a small wcwidth of our own).
///
/// East Asian wide and fullwidth characters and emoji shown as emoji take two columns;
/// combining marks, variation selectors and other zero-width scalars take none.
/// Ambiguous-width characters count as one, as in a UTF-8 locale outside East Asia.
package enum CharWidth {
  /// The columns one Unicode scalar takes: 0, 1 or 2 (-1 for a control character).
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x20 || (v >= 0x7F && v < 0xA0) { return -1 }
    if v < 0x300 { return 1 }
    if isZeroWidth(scalar) { return 0 }
    if isWide(v) { return 2 }
    if scalar.properties.isEmojiPresentation { return 2 }
    return 1
  }

  /// The columns one grapheme takes: its base scalar's width, 2 for an emoji with U+FE0F.
  public static func of(_ character: Character) -> Int {
    if let a = character.asciiValue { return a >= 0x20 && a < 0x7F ? 1 : -1 }
    var width = 0
    var sawBase = false
    for scalar in character.unicodeScalars {
      let w = of(scalar)
      if w < 0 { return -1 }
      if !sawBase {
        if w > 0 {
          width = w
          sawBase = true
        }
      } else if scalar.value == 0xFE0F, scalar != character.unicodeScalars.first,
        character.unicodeScalars.first?.properties.isEmoji == true
      {
        width = 2
      }
    }
    return width
  }

  /// The columns a string takes (control characters count as 0; sanitize first).
  public static func of(_ text: String) -> Int {
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    // The screen's own glyphs (rules, boxes, bullets, arrows, ticks) are one column each and
    // join nothing: counted as scalars, with no grapheme breaking and no property lookups.
    var scalars = 0
    for s in text.unicodeScalars {
      guard isNarrowAlone(s.value) else { return graphemeWidth(text) }
      scalars += 1
    }
    return scalars
  }

  /// The columns a string takes, a grapheme at a time.
  static func graphemeWidth(_ text: String) -> Int {
    var total = 0
    for c in text { total += max(0, of(c)) }
    return total
  }

  /// Whether the scalar is one column wide and forms a grapheme alone whatever is next to it
  /// (neither joins another nor is joined): printable ASCII and Latin-1 below U+0300, general
  /// punctuation (dashes, quotes, bullet, ellipsis), arrows, mathematical operators, box drawing,
  /// block elements, geometric shapes without an emoji presentation, and ✓✔✕✖✗.
  /// `CharWidthTests` checks every one against the grapheme-at-a-time width.
  static func isNarrowAlone(_ v: UInt32) -> Bool {
    switch v {
    case 0x20..<0x7F, 0xA0..<0xAD, 0xAE..<0x300: return true
    case 0x2010...0x2027, 0x2030...0x205E: return true
    case 0x2190...0x21FF, 0x2200...0x22FF: return true
    case 0x2500...0x25FC, 0x2713...0x2717: return true
    default: return false
    }
  }

  static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    if v >= 0x1160 && v <= 0x11FF { return true }  // Hangul medial vowels and final consonants
    if v == 0x200B { return true }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return true
    default: return false
    }
  }

  static func isWide(_ v: UInt32) -> Bool {
    for range in wideRanges where range.contains(v) { return true }
    return false
  }

  /// East Asian Wide (W) and Fullwidth (F) blocks.
  static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
    0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
    0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
    0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
    0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
    0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
    0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
    0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
    0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251,
    0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF,
    0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]
}
