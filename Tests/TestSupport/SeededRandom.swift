import Foundation

/// SplitMix64: a small seeded generator, so a failing generated case can be made again from its seed.
public struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  /// A generator that always gives the same numbers for `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next number.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The seed for a test: `VERDICTS_SEED` when set (to replay a failure), else one drawn now.
  public static func testSeed() -> UInt64 {
    if let text = ProcessInfo.processInfo.environment["VERDICTS_SEED"], let seed = UInt64(text) { return seed }
    return UInt64.random(in: 1...UInt64(UInt32.max))
  }
}
