import MarfaQueue
import Testing

@testable import VerdictsUI

/// The grid draws text from an instance only through the sanitizer.
@Suite struct GridSanitizingTests {
  @Test func nothingRawReachesTheGrid() {
    var grid = Grid(width: 60, height: 1)
    grid.put(Fixtures.escapeFailure, x: 0, y: 0)
    for cell in grid.cells {
      for scalar in cell.text.unicodeScalars {
        #expect(scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value))
        #expect(!(0x202A...0x202E).contains(scalar.value) && !(0x2066...0x2069).contains(scalar.value))
      }
    }
    #expect(grid.line(0).hasPrefix("upstream ␛[31mRED␛[0m \\u{202e}txet"))
    #expect(grid[9, 0].role == .escaped)
  }
}

/// A `watch --plain` line stays one readable line whatever the instance sent.
@Suite struct PlainLineBoundTests {
  @Test func aHugeRefusalMessageIsCutOnItsPlainLine() {
    let w = QueuedWrite(
      id: "w1", kind: .createItem, idempotencyKey: "k",
      verdict: .refused(Refusal(reason: "validation_error", message: String(repeating: "x", count: 10_000_000))),
      queuedAt: "2026-01-01T00:00:00.000Z")
    let line = PlainFormatter.line(w, time: "t")
    #expect(line.count < 500)
    #expect(line.hasSuffix("… (10000000 characters)\""))
  }
}
