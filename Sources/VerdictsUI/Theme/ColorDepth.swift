/// How many colours the terminal shows; themes are mapped down to it.
package enum ColorDepth: String, Sendable, Hashable, CaseIterable {
  /// No colour: attributes only (`NO_COLOR`, `--no-color`, a monochrome terminal).
  case none
  case colors8 = "8"
  case colors16 = "16"
  case colors256 = "256"

  /// The depth for a terminal that reports `count` colours.
  public init(colorCount count: Int) {
    switch count {
    case 256...: self = .colors256
    case 16...: self = .colors16
    case 8...: self = .colors8
    default: self = .none
    }
  }
}
