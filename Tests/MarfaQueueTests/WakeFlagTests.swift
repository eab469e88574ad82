import Foundation
import Testing

@testable import MarfaQueue

/// The flag `updates()` sleeps on: a raise wakes the sleeper at once, a raise before the sleep is
/// kept, and without one the sleep lasts its timeout (or until the task is cancelled).
///
/// "At once" is held against a ten-minute timeout with a two-minute bound: on two cores the
/// test process's other suites can hold the cooperative pool for seconds, which is not the flag's
/// doing (seen: 5.8 s on a loaded machine).
@Suite struct WakeFlagTests {
  @Test func aRaiseWakesTheSleeperAtOnceNotAtTheTimeout() async {
    let flag = WakeFlag()
    let start = ContinuousClock.now
    let sleeper = Task { await flag.sleep(for: .seconds(600)) }
    // Raise once the sleeper is (most likely) waiting; a raise before it sleeps also wakes it.
    // A fixed pause: the flag does not show whether a sleeper has started waiting.
    try? await Task.sleep(for: .milliseconds(20))
    flag.raise()
    await sleeper.value
    #expect(ContinuousClock.now - start < .seconds(120))
    #expect(flag.take())
    #expect(!flag.take(), "take lowers the flag")
  }

  @Test func aRaiseBeforeTheSleepIsKeptAndTheSleepReturnsAtOnce() async {
    let flag = WakeFlag()
    flag.raise()
    let start = ContinuousClock.now
    await flag.sleep(for: .seconds(600))
    #expect(ContinuousClock.now - start < .seconds(120))
    #expect(flag.isRaised, "sleeping leaves the flag up for the sleeper to take")
  }

  @Test func withoutARaiseTheSleepLastsItsTimeout() async {
    let flag = WakeFlag()
    let start = ContinuousClock.now
    await flag.sleep(for: .milliseconds(150))
    let slept = ContinuousClock.now - start
    #expect(slept >= .milliseconds(150))
    #expect(slept < .seconds(120))
    #expect(!flag.isRaised)
  }

  @Test func cancellingTheSleeperWakesIt() async {
    let flag = WakeFlag()
    let start = ContinuousClock.now
    let sleeper = Task { await flag.sleep(for: .seconds(600)) }
    // A fixed pause, as above: most likely waiting by then; cancelled earlier, it must end too.
    try? await Task.sleep(for: .milliseconds(20))
    sleeper.cancel()
    await sleeper.value
    #expect(ContinuousClock.now - start < .seconds(120))
    #expect(!flag.isRaised)
  }

  @Test func oneRaiseWakesEverySleeper() async {
    let flag = WakeFlag()
    let start = ContinuousClock.now
    let sleepers = (0..<3).map { _ in Task { await flag.sleep(for: .seconds(600)) } }
    // A fixed pause, as above: most likely all waiting by then.
    try? await Task.sleep(for: .milliseconds(20))
    flag.raise()
    for s in sleepers { await s.value }
    #expect(ContinuousClock.now - start < .seconds(120))
  }
}
