import VerdictsUI

/// A small terminal the bench feeds what a program sent, so it can read the screen a person
/// would see: text only (colours and attributes are dropped), the cursor, the scroll region,
/// and the sequences ncurses sends for `TERM=xterm-256color` (cup, hpa, vpa, cuf/cub/cuu/cud,
/// el/el1/ed, ech, ich/dch, il/dl, csr, ind/ri, indn/rin, rep, the line-drawing charset).
struct ScreenModel {
  let width: Int
  let height: Int
  private(set) var cells: [[Character]]
  private(set) var row = 0
  private(set) var column = 0
  private var top = 0
  private var bottom: Int
  private var lineDrawing = false
  private var last: Character = " "
  /// Bytes of an escape sequence or a UTF-8 character not complete yet.
  private var pending: [UInt8] = []

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    bottom = height - 1
    cells = Array(repeating: Array(repeating: " ", count: width), count: height)
  }

  /// One row as text (a wide character's second cell is left out).
  func line(_ r: Int) -> String { String(cells[r].filter { $0 != ScreenModel.wideTail }) }

  /// The whole screen, a line per row.
  var text: String { (0..<height).map(line).joined(separator: "\n") }

  static let wideTail: Character = "\u{0}"

  /// Takes the next bytes the program sent.
  mutating func feed<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
    for b in bytes {
      if !pending.isEmpty {
        pending.append(b)
        consumePending()
        continue
      }
      switch b {
      case 0x1B: pending = [b]
      case 0x0D: column = 0
      case 0x0A, 0x0B, 0x0C: lineFeed()
      case 0x08: column = max(0, column - 1)
      case 0x09: column = min(width - 1, (column / 8 + 1) * 8)
      case 0x0E: lineDrawing = true
      case 0x0F: lineDrawing = false
      case 0..<0x20, 0x7F: break
      case 0x20..<0x80: put(lineDrawing ? Self.lineDrawingGlyph(b) : Character(Unicode.Scalar(b)))
      default: pending = [b]
      }
    }
  }

  /// An escape sequence or a UTF-8 character in `pending`: acted on once it is whole.
  private mutating func consumePending() {
    let first = pending[0]
    if first != 0x1B {
      let need = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
      guard pending.count >= need else { return }
      let text = String(decoding: pending, as: UTF8.self)
      pending = []
      for c in text { put(c) }
      return
    }
    guard pending.count >= 2 else { return }
    let kind = pending[1]
    switch kind {
    case UInt8(ascii: "["):
      guard let final = pending.last, pending.count > 2, (0x40...0x7E).contains(final) else {
        if pending.count > 64 { pending = [] }
        return
      }
      let body = pending[2..<(pending.count - 1)]
      pending = []
      csi(Array(body), final)
    case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"):
      // A string sequence (OSC, DCS…): ends with BEL or ESC \.
      let n = pending.count
      if pending[n - 1] == 0x07 || (n >= 4 && pending[n - 2] == 0x1B && pending[n - 1] == UInt8(ascii: "\\")) {
        pending = []
      } else if n > 4096 {
        pending = []
      }
    case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "#"),
      UInt8(ascii: "%"):
      guard pending.count >= 3 else { return }
      if kind == UInt8(ascii: "(") { lineDrawing = pending[2] == UInt8(ascii: "0") }
      pending = []
    default:
      pending = []
      switch kind {
      case UInt8(ascii: "M"): reverseIndex()
      case UInt8(ascii: "D"): lineFeed()
      case UInt8(ascii: "E"):
        column = 0
        lineFeed()
      case UInt8(ascii: "c"): self = ScreenModel(width: width, height: height)
      default: break  // ESC 7, ESC 8, ESC =, ESC >: nothing the text shows
      }
    }
  }

  private mutating func csi(_ body: [UInt8], _ final: UInt8) {
    let privateMode = body.first.map { "?>=<".utf8.contains($0) } ?? false
    let text = String(decoding: privateMode ? Array(body.dropFirst()) : body, as: UTF8.self)
    let params = text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
    func p(_ i: Int, _ fallback: Int = 1) -> Int {
      guard i < params.count, let v = params[i], v > 0 else { return fallback }
      return v
    }
    if privateMode {
      // ?1049h / ?1049l: the alternate screen, entered and left clean.
      if text.hasPrefix("1049") || text.hasPrefix("47") || text.hasPrefix("1047") { clearAll() }
      return
    }
    switch Character(Unicode.Scalar(final)) {
    case "H", "f":
      row = min(height - 1, p(0) - 1)
      column = min(width - 1, p(1) - 1)
    case "G", "`": column = min(width - 1, p(0) - 1)
    case "d": row = min(height - 1, p(0) - 1)
    case "A": row = max(0, row - p(0))
    case "B": row = min(height - 1, row + p(0))
    case "C": column = min(width - 1, column + p(0))
    case "D": column = max(0, column - p(0))
    case "K":
      let mode = p(0, 0)
      let range = mode == 0 ? column..<width : mode == 1 ? 0..<min(width, column + 1) : 0..<width
      for c in range { cells[row][c] = " " }
    case "J":
      let mode = p(0, 0)
      if mode == 2 || mode == 3 {
        clearAll()
      } else if mode == 0 {
        for c in column..<width { cells[row][c] = " " }
        for r in (row + 1)..<height { cells[r] = Array(repeating: " ", count: width) }
      } else {
        for r in 0..<row { cells[r] = Array(repeating: " ", count: width) }
        for c in 0...min(column, width - 1) { cells[row][c] = " " }
      }
    case "X":
      for c in column..<min(width, column + p(0)) { cells[row][c] = " " }
    case "@":
      let n = min(p(0), width - column)
      cells[row].insert(contentsOf: Array(repeating: " ", count: n), at: column)
      cells[row].removeLast(n)
    case "P":
      let n = min(p(0), width - column)
      cells[row].removeSubrange(column..<(column + n))
      cells[row].append(contentsOf: Array(repeating: " ", count: n))
    case "L":
      guard row >= top && row <= bottom else { return }
      for _ in 0..<min(p(0), bottom - row + 1) {
        cells.remove(at: bottom)
        cells.insert(Array(repeating: " ", count: width), at: row)
      }
    case "M":
      guard row >= top && row <= bottom else { return }
      for _ in 0..<min(p(0), bottom - row + 1) {
        cells.remove(at: row)
        cells.insert(Array(repeating: " ", count: width), at: bottom)
      }
    case "S": for _ in 0..<p(0) { scrollUp() }
    case "T": for _ in 0..<p(0) { scrollDown() }
    case "r":
      top = min(height - 1, p(0) - 1)
      bottom = min(height - 1, p(1, height) - 1)
      if bottom <= top {
        top = 0
        bottom = height - 1
      }
      row = 0
      column = 0
    case "b":
      for _ in 0..<p(0) { put(last) }
    default: break  // m (colours), h/l, t, n, q: nothing the text shows
    }
  }

  private mutating func put(_ c: Character) {
    let wide = CharWidth.of(c) == 2
    if column >= width {
      column = 0
      lineFeed()
    }
    if wide && column == width - 1 {
      cells[row][column] = " "
      column = 0
      lineFeed()
    }
    cells[row][column] = c
    column += 1
    if wide && column < width {
      cells[row][column] = Self.wideTail
      column += 1
    }
    last = c
    // ncurses writes the last column of a row and expects the cursor to stay there (xenl).
    if column >= width { column = width }
  }

  private mutating func lineFeed() {
    if row == bottom {
      scrollUp()
    } else {
      row = min(height - 1, row + 1)
    }
    if column >= width { column = width - 1 }
  }

  private mutating func reverseIndex() {
    if row == top { scrollDown() } else { row = max(0, row - 1) }
  }

  private mutating func scrollUp() {
    cells.remove(at: top)
    cells.insert(Array(repeating: " ", count: width), at: bottom)
  }

  private mutating func scrollDown() {
    cells.remove(at: bottom)
    cells.insert(Array(repeating: " ", count: width), at: top)
  }

  private mutating func clearAll() {
    cells = Array(repeating: Array(repeating: " ", count: width), count: height)
  }

  /// The DEC line-drawing set (`ESC ( 0`), as ncurses' `acsc` for xterm maps it.
  static func lineDrawingGlyph(_ b: UInt8) -> Character {
    switch b {
    case UInt8(ascii: "q"): return "─"
    case UInt8(ascii: "x"): return "│"
    case UInt8(ascii: "l"): return "┌"
    case UInt8(ascii: "k"): return "┐"
    case UInt8(ascii: "m"): return "└"
    case UInt8(ascii: "j"): return "┘"
    case UInt8(ascii: "t"): return "├"
    case UInt8(ascii: "u"): return "┤"
    case UInt8(ascii: "v"): return "┴"
    case UInt8(ascii: "w"): return "┬"
    case UInt8(ascii: "n"): return "┼"
    case UInt8(ascii: "a"): return "▒"
    case UInt8(ascii: "`"): return "◆"
    case UInt8(ascii: "~"): return "·"
    default: return Character(Unicode.Scalar(b))
    }
  }
}
