import Testing

@testable import VerdictsUI

/// What `watch --plain` remembers of the lines it printed: bounded whatever the queue's size.
@Suite struct PlainMemoryTests {
  @Test func itRemembersAtMostTwoGenerationsAndForgetsTheOldestWhole() {
    var memory = PlainMemory(capacity: 100)
    for i in 0..<100_000 { memory.remember("w\(i)", .init(line: "line \(i)", hadVerdict: i % 2 == 0)) }
    #expect(memory.count <= 200)
    #expect(memory["w99999"] == .init(line: "line 99999", hadVerdict: false))
    #expect(memory["w99900"]?.hadVerdict == true)
    #expect(memory["w0"] == nil)
    memory.forget("w99999")
    #expect(memory["w99999"] == nil)
  }
}
