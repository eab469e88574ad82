import MarfaQueue
import Testing

@testable import VerdictsUI

/// The demo teaches: a refused-key stop says what to press and which key to give; a write that
/// meets the instance switch says why it is blocked `instance_changed` and what clears it.
@Suite struct NextStepTests {
  @Test func aRefusedKeyStopSaysPressKAndTheKeyToGive() {
    var s = Fixtures.state()
    s.keyHint = "tour-key-2"
    let report = DrainReport(held: 2, stopped: "the instance refused the key")
    _ = s.handle(.drained(report))
    _ = s.handle(.outcome("auto-drain: " + DrainReportText.counts(report), isError: true))
    #expect(s.message?.text.hasSuffix("; press K and give tour-key-2 to send it") == true, "\(s.message?.text ?? "")")
  }

  @Test func withoutAHintItAsksForAnotherKey() {
    var s = Fixtures.state()
    let report = DrainReport(stopped: "refused")
    _ = s.handle(.drained(report))
    _ = s.handle(.outcome("drained: " + DrainReportText.counts(report), isError: true))
    #expect(s.message?.text.hasSuffix("press K and give another key to send it") == true)
  }

  @Test func aReleasedWriteBlockedInstanceChangedIsExplained() {
    var s = Fixtures.state()
    _ = s.handle(.outcome("released 1", isError: false))
    let verdict = DrainVerdict(
      id: "w-moved-1", kind: .updateItem, verdict: .blocked(reason: .instanceChanged, refusal: nil))
    let report = DrainReport(verdicts: [verdict])
    _ = s.handle(.drained(report))
    _ = s.handle(.outcome("auto-drain: " + DrainReportText.counts(report), isError: false))
    let text = s.message?.text ?? ""
    #expect(text.hasPrefix("released 1 · auto-drain: "), "\(text)")
    #expect(
      text.contains(
        "w-moved-1 was queued against another instance than the one there now (instance_changed): r sends to the new one, w withdraws"
      ), "\(text)")
  }

  @Test func otherMessagesAreLeftAlone() {
    var s = Fixtures.state()
    _ = s.handle(.drained(DrainReport(stopped: "refused")))
    _ = s.handle(.outcome("auto-drain: next try in 5s", isError: false))
    #expect(s.message?.text == "auto-drain: next try in 5s")
  }
}

/// The Dead detail shows the refusal that killed it; instance ids are shortened so two differ.
@Suite struct DeadAndInstanceTests {
  @Test func theDeadDetailShowsTheRefusalFromItsLastAnswer() {
    var w = Fixtures.dead[0]
    w.answer = #"{"error":{"code":"validation_error","message":"title is required"}}"#
    let lines = Renderer(state: Fixtures.state()).detailLines(w, width: 200).map(\.plain)
    #expect(lines.contains { $0.hasPrefix("refusal      validation_error · title is required") }, "\(lines)")
  }

  @Test func theTourInstancesShortenToDifferentText() {
    let a = ShortID.instance("00000000-0000-7000-8000-000000000000")
    let b = ShortID.instance("99999999-0000-7000-8000-000000000000")
    #expect(a != b)
    #expect(a == "00000000…0000")
    #expect(ShortID.instance("inst-7c1e") == "inst-7c1e")
  }
}
