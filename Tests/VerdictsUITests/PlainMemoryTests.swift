import MarfaQueue
import Testing

@testable import VerdictsUI

/// What `watch --plain` remembers of the lines it printed: bounded whatever the queue's size.
@Suite struct PlainMemoryTests {
  @Test func itRemembersAtMostTwoGenerationsAndForgetsTheOldestWhole() {
    var memory = PlainMemory(capacity: 100)
    func look(_ i: Int) -> PlainLook { PlainLook(Fixtures.write("w\(i)")) }
    for i in 0..<100_000 { memory.remember("w\(i)", .init(look: look(i), hadVerdict: i % 2 == 0)) }
    #expect(memory.count <= 200)
    #expect(memory["w99999"] == .init(look: look(99999), hadVerdict: false))
    #expect(memory["w99900"]?.hadVerdict == true)
    #expect(memory["w0"] == nil)
    memory.forget("w99999")
    #expect(memory["w99999"] == nil)
  }

  /// The watcher leaves out a line when the write's look is unchanged: two states of one write
  /// (its id, kind and rows fixed once queued) look the same exactly when their lines are the same.
  @Test func twoStatesOfAWriteLookTheSameExactlyWhenTheirPlainLinesAreTheSame() {
    let base = Fixtures.write("w-1", .createItem, item: "note-1")
    var variants: [QueuedWrite] = [base]
    func with(_ change: (inout QueuedWrite) -> Void) {
      var w = base
      change(&w)
      variants.append(w)
    }
    with { $0.sent = true }
    with { $0.waiting = true }
    with {
      $0.waiting = true
      $0.follows = "w-0"
    }
    with { $0.lastFailure = LastFailure(status: 503, text: "Service Unavailable") }
    with { $0.lastFailure = LastFailure(status: 502, text: "Service Unavailable") }
    with { $0.lastFailure = LastFailure(status: 503, text: "Bad Gateway") }
    with { $0.environmentalStreak = 2 }
    with { $0.verdict = .accepted }
    with { $0.verdict = .dead }
    with { $0.verdict = .refused(Fixtures.refusal) }
    with { $0.verdict = .blocked(reason: .keySpent, refusal: nil) }
    with { $0.verdict = .blocked(reason: .credentialRefused, refusal: nil) }
    with { $0.queuedAt = "2026-11-29T11:00:00.000Z" }
    for a in variants {
      for b in variants {
        let sameLine = PlainFormatter.line(a, time: "t") == PlainFormatter.line(b, time: "t")
        #expect(
          (PlainLook(a) == PlainLook(b)) == sameLine,
          "\(PlainFormatter.line(a, time: "t")) / \(PlainFormatter.line(b, time: "t"))")
      }
    }
  }
}
