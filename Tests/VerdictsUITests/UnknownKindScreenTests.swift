import MarfaQueue
import Testing

@testable import VerdictsUI

/// A write whose stored kind this build does not know is shown as unreadable
/// in the panes, the detail and `watch --plain`, never as the placeholder kind it is read with.
@Suite struct UnknownKindScreenTests {
  static func odd(_ stored: String) -> QueuedWrite {
    var w = Fixtures.write("w-odd", .createItem)
    w.unknownKind = stored
    return w
  }

  @Test(arguments: [("bogus_kind", "unreadable kind 'bogus_kind'"), ("", "unreadable kind (none stored)")])
  func thePaneRowAndTheDetailSayTheKindIsUnreadable(_ stored: String, _ words: String) {
    let renderer = Renderer(state: Fixtures.state(width: 200))
    let row = renderer.listRow(Self.odd(stored), width: 120).plain
    #expect(row.contains("unreadable"), "\(row)")
    #expect(!row.contains("create item"), "\(row)")
    let detail = renderer.detailLines(Self.odd(stored), width: 200).map(\.plain)
    let kind = detail.first { $0.hasPrefix("kind") } ?? ""
    #expect(kind.contains(words) && kind.contains("never sent"), "\(kind)")
    #expect(!kind.contains("create_item"), "\(kind)")
  }

  @Test func aPlainLineNamesTheStoredKindAsUnreadable() {
    let line = PlainFormatter.line(Self.odd("bogus_kind"), time: "2026-12-01T00:00:00.000Z")
    let fields = line.split(separator: " ")
    #expect(fields.count > 2 && fields[2] == "unreadable:bogus_kind", "\(line)")
    // A hostile stored kind is cut and its controls made visible, never raw.
    let hostile = PlainFormatter.line(Self.odd("\u{1B}[2J" + String(repeating: "k", count: 500)), time: "t")
    #expect(!hostile.contains("\u{1B}"), "\(hostile)")
    #expect(hostile.count < 200, "\(hostile.count) characters")
  }
}
