/// A row of cells whose heights show a series of numbers: Unicode's eighth blocks, or ASCII
/// characters of rising weight where the terminal cannot draw them.
enum Sparkline {
  static let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
  /// Never `-`, `+` or `|`: those draw the borders in ASCII mode.
  static let asciiLevels: [Character] = [" ", ".", ":", ";", "=", "o", "x", "#", "@"]

  /// One cell per value, scaled to the largest; any value above zero draws at least the lowest mark.
  static func draw(_ values: [Double], ascii: Bool) -> String {
    let levels = ascii ? asciiLevels : blocks
    let top = values.max() ?? 0
    guard top > 0 else { return String(repeating: levels[0], count: values.count) }
    return String(
      values.map { v -> Character in
        guard v > 0 else { return levels[0] }
        let step = Int((v / top * Double(levels.count - 1)).rounded(.up))
        return levels[min(levels.count - 1, max(1, step))]
      })
  }
}
