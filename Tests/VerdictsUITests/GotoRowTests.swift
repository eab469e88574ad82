import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// `:` takes what a person is given: a write's ID, or a row's (item or edge),
/// going to the writes that name it; several are the choice, shown as the filter `row:<id>`.
@Suite struct GotoRowTests {
  @Test func aRowNamedByOneWriteGoesToThatWrite() async {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let d = CoreDriver(q)
    await d.settle()
    await d.keys(.char(":"))
    for c in "note-3" { await d.keys(.char(c)) }
    await d.keys(.enter)
    await d.run(until: "the write naming note-3 is selected") { $0.state.selectedWrite?.id == "w-accept" }
    #expect(d.core.state.focus == .answered)
  }

  @Test func aRowNamedBySeveralWritesFiltersThePanesToThem() async {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let d = CoreDriver(q)
    await d.settle()
    await d.keys(.char(":"))
    for c in "note-1" { await d.keys(.char(c)) }
    await d.keys(.enter)
    await d.run(until: "the panes show the writes naming note-1") { $0.state.filter == "row:note-1" }
    await d.settle()
    let s = d.core.state
    #expect(s.message?.text.hasPrefix("note-1 is a row; 3 writes name it") == true, "\(s.message?.text ?? "")")
    #expect(s[.waiting].writes.allSatisfy { $0.itemId == "note-1" })
    #expect(s[.waiting].total == 3)
  }

  @Test func neitherAWriteNorARowSaysBoth() async {
    let q = FakeQueue(writes: AppCoreTests.allWrites())
    let d = CoreDriver(q)
    await d.settle()
    await d.keys(.char(":"))
    for c in "n-conflict" { await d.keys(.char(c)) }
    await d.keys(.enter)
    await d.run(until: "the go-to is refused") { $0.state.message?.isError == true }
    let text = d.core.state.message?.text ?? ""
    #expect(text.contains("the queue holds no write n-conflict"), "\(text)")
    #expect(text.contains("no write names a row n-conflict either"), "\(text)")
  }
}
