import FoundationEssentials
import MarfaQueue
import Testing

@testable import VerdictsUI

/// `y` copies the selected write's full ID (OSC 52), `Y` exports the selected or marked writes.
@Suite struct CopyExportTests {
  @Test func yCopiesTheFullIDAndSaysSo() {
    var s = Fixtures.state(focus: .waiting)
    #expect(s.handle(.key(.char("y"))) == [.copy("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b")])
    #expect(s.message?.text == "copied 0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b to the clipboard")
  }

  @Test func withTheClipboardOffYShowsTheIDInstead() {
    var s = Fixtures.state(focus: .answered)
    s.clipboard = false
    #expect(s.handle(.key(.char("y"))).isEmpty)
    #expect(s.message == StatusMessage("copy is off (clipboard = off in the config); the ID: w-accept", isError: true))
  }

  @Test func theSequenceCarriesTheBase64OfTheIDBetweenOSC52AndBEL() {
    #expect(OSC52.sequence("w-1") == Array("\u{1B}]52;c;dy0x\u{07}".utf8))
  }

  @Test func shiftYExportsTheMarkedElseTheSelected() {
    var s = Fixtures.state(focus: .answered)
    #expect(s.handle(.key(.char("Y"))) == [.export(["w-accept"])])
    _ = s.handle(.key(.char(" ")))
    _ = s.handle(.key(.down))
    _ = s.handle(.key(.char(" ")))
    #expect(s.handle(.key(.char("Y"))) == [.export(["w-accept", "w-merged"])])
  }

  @Test func theAppPutsTheSequenceOutForTheLoopToSend() async {
    let d = CoreDriver(FakeQueue(writes: AppCoreTests.allWrites()))
    await d.settle()
    await d.keys(.char("2"), .char("y"))
    #expect(d.core.rawOut == [OSC52.sequence("w-accept")])
  }
}

/// `y` is honest where the terminal's answer cannot be known.
@Suite struct CopyThroughARelayTests {
  @Test func underTmuxYSaysItSentTheIDToTheTerminalAndHowToLetItOn() {
    var s = Fixtures.state()
    s.clipboardRelay = ClipboardRelay.from(environment: ["TMUX": "/tmp/tmux-0/default,1,0"])
    #expect(s.handle(.key(.char("y"))) == [.copy("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b")])
    let text = s.message?.text ?? ""
    #expect(text.hasPrefix("sent 0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b to the terminal"), "\(text)")
    #expect(text.contains("set -g set-clipboard on"))
    #expect(!text.contains("copied"))
  }

  @Test func underScreenYSaysTheCopyStopsThere() {
    var s = Fixtures.state()
    s.clipboardRelay = ClipboardRelay.from(environment: ["STY": "1234.pts-0.host"])
    _ = s.handle(.key(.char("y")))
    #expect(s.message?.text.contains("GNU screen's passthrough") == true)
    #expect(s.message?.text.contains("cannot be known") == true)
  }

  @Test func underTmuxTheCopyIsSentPlainAndInTmuxsPassthroughWithEveryEscDoubled() {
    let plain = Array("\u{1B}]52;c;dy0x\u{07}".utf8)
    let wrapped = Array("\u{1B}Ptmux;\u{1B}\u{1B}]52;c;dy0x\u{07}\u{1B}\\".utf8)
    #expect(OSC52.sequence("w-1", through: .tmux) == plain + wrapped)
    #expect(OSC52.sequence("w-1", through: nil) == plain)
  }

  @Test func underScreenTheCopyGoesInScreensPassthroughInChunks() {
    #expect(OSC52.sequence("w-1", through: .screen) == Array("\u{1B}P\u{1B}]52;c;dy0x\u{07}\u{1B}\\".utf8))
    let long = String(repeating: "a", count: 60)  // 80 base64 characters: a chunk of 76 and one of 4
    let b64 = Array(Data(long.utf8).base64EncodedString().utf8)
    let expected =
      Array("\u{1B}P\u{1B}]52;c;".utf8) + b64[0..<76] + Array("\u{1B}\\\u{1B}P".utf8) + b64[76...]
      + Array("\u{07}\u{1B}\\".utf8)
    #expect(OSC52.sequence(long, through: .screen) == expected)
  }

  @Test func theAppSendsTheCopyThroughTheRelayItWasGiven() async {
    let d = CoreDriver(FakeQueue(writes: AppCoreTests.allWrites()))
    d.core.state.clipboardRelay = .tmux
    await d.settle()
    await d.keys(.char("2"), .char("y"))
    #expect(d.core.rawOut == [OSC52.sequence("w-accept", through: .tmux)])
  }

  @Test func withNoRelayTheEnvironmentNamesNone() {
    #expect(ClipboardRelay.from(environment: ["TERM": "xterm"]) == nil)
    #expect(ClipboardRelay.from(environment: ["TMUX": ""]) == nil)
  }
}
