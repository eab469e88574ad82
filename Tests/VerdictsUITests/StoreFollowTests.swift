import MarfaQueue
import Testing

@testable import VerdictsUI

/// A watcher whose store file goes away says so, waits for it, and reads a new file at the path
/// from its start.
@Suite struct StoreFollowTests {
  @Test func aWatcherSaysItsStoreWentWaitsAndReadsTheNewOneFromTheStart() async {
    let old = FakeQueue(writes: AppCoreTests.allWrites(), handle: .reader(reason: "another process writes"))
    old.watchesFiles = true
    let d = CoreDriver(old, readOnly: "another process writes")
    await d.settle()
    #expect(d.core.state[.blocked].total == 7)

    old.fileState = .removed
    old.touchFiles()
    await d.run(until: "the screen says the store went") { $0.state.storeFile == .removed }
    let gone = Renderer.render(d.core.state).text
    #expect(gone.contains("store removed at "))
    #expect(gone.contains("; waiting for it"))
    // Shown as it was meanwhile.
    #expect(d.core.state[.blocked].total == 7)

    let new = FakeQueue(writes: [Fixtures.waiting[0]], handle: .reader(reason: "another process writes"))
    new.watchesFiles = true
    old.reopensTo = new
    old.fileState = .replaced
    old.touchFiles()
    await d.run(until: "the new store is read") {
      $0.source as? FakeQueue === new && $0.firstReadsDone && $0.state[.blocked].total == 0
    }
    await d.settle()
    #expect(old.isClosed)
    #expect(d.core.state.storeFile == .same)
    #expect(d.core.state[.waiting].total == 1)
    #expect(d.core.state[.answered].total == 0)
    // From the start: every pane read from its first write.
    #expect(new.pageReads.allSatisfy { $0.1 == 0 })
    #expect(!Renderer.render(d.core.state).text.contains("store removed"))

    // And its changes are followed.
    new.mutate { $0.append(Fixtures.answered[0]) }
    await d.run(until: "a change in the new store is shown") { $0.state[.answered].total == 1 }
  }

  @Test func aWriterWhoseStoreWentSaysSoButDoesNotFollow() {
    var s = Fixtures.state(width: 120, height: 40)
    s.storeFile = .removed
    let text = Renderer.render(s).text
    #expect(text.contains("store removed"))
    #expect(!text.contains("waiting for it"))
  }
}
