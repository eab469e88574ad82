/// The xterm palette, used to map 24-bit and 256-colour values down to 256, 16 or 8 colours.
enum Palette {
  typealias RGB = (UInt8, UInt8, UInt8)

  /// xterm's default values for the sixteen basic colours.
  static let basic: [RGB] = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
    (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
    (255, 255, 255),
  ]

  /// The six levels of each channel in the 6×6×6 cube (indexes 16–231).
  static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

  /// The RGB value of a palette index.
  static func rgb(of index: Int) -> RGB {
    switch index {
    case 0..<16: return basic[index]
    case 16..<232:
      let i = index - 16
      return (UInt8(cubeLevels[i / 36]), UInt8(cubeLevels[(i / 6) % 6]), UInt8(cubeLevels[i % 6]))
    default:
      let v = UInt8(8 + 10 * (min(255, max(232, index)) - 232))
      return (v, v, v)
    }
  }

  static func distance(_ a: RGB, _ b: RGB) -> Int {
    let dr = Int(a.0) - Int(b.0)
    let dg = Int(a.1) - Int(b.1)
    let db = Int(a.2) - Int(b.2)
    // Weighted towards green, as the eye is.
    return 3 * dr * dr + 4 * dg * dg + 2 * db * db
  }

  /// The nearest of the 240 cube and grey entries (16–255), as terminals' basic 16 vary.
  static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
    func level(_ v: UInt8) -> Int {
      var best = 0
      for (i, l) in cubeLevels.enumerated() where abs(l - Int(v)) < abs(cubeLevels[best] - Int(v)) { best = i }
      return best
    }
    let cube = 16 + 36 * level(r) + 6 * level(g) + level(b)
    let average = (Int(r) + Int(g) + Int(b)) / 3
    let grey = 232 + min(23, max(0, (average - 3) / 10))
    return distance(rgb(of: grey), (r, g, b)) < distance(rgb(of: cube), (r, g, b)) ? grey : cube
  }

  /// The nearest of the sixteen basic colours (greys by lightness, never a hue).
  static func nearest16(_ c: RGB) -> Int {
    if let l = greyLevel(c) { return l < 48 ? 0 : l < 160 ? 8 : l < 224 ? 7 : 15 }
    return nearest(c, among: 0..<16)
  }

  /// The nearest of the eight basic colours (greys by lightness, never a hue).
  static func nearest8(_ c: RGB) -> Int {
    if let l = greyLevel(c) { return l < 64 ? 0 : 7 }
    return nearest(c, among: 0..<8)
  }

  /// The lightness of a colour that is (nearly) grey, else nil.
  static func greyLevel(_ c: RGB) -> Int? {
    let values = [Int(c.0), Int(c.1), Int(c.2)]
    guard values.max()! - values.min()! < 24 else { return nil }
    return values.reduce(0, +) / 3
  }

  static func nearest(_ c: RGB, among range: Range<Int>) -> Int {
    var best = range.lowerBound
    var bestDistance = Int.max
    for i in range {
      let d = distance(basic[i], c)
      if d < bestDistance {
        best = i
        bestDistance = d
      }
    }
    return best
  }
}
