import Foundation
import MarfaQueue
import TestSupport
import Testing

@testable import VerdictsUI

/// On the screen: a write's row and its detail's verdict line name its state with
/// the one word `queue`, `show`, `watch --plain` and `--json` give it (`StateWordBinaryTests` asks
/// those of the same kind of store through the binary).
@Suite struct StateWordScreenTests {
  @Test func eachRowAndDetailNamesItsStateWithTheWordEveryOtherViewGives() async throws {
    let folder = TempFolder()
    defer { _ = folder }
    let url = folder.storeURL
    let writer = try await WorkingCopy.open(store: url, server: nil)
    var ids: [String: String] = [:]
    for role in EveryState.roles {
      ids[role] = try await writer.createItem(type: "note", properties: .object([]), id: "item-\(role)").id
    }
    writer.close()
    try SQLiteScript.run(EveryState.sql(ids), on: url.path)
    let reader = try await WorkingCopy.openReader(store: url)
    defer { reader.close() }
    let screen = try await VerdictsApp.renderOnce(copy: reader, size: (width: 160, height: 48))
    let lines = screen.split(separator: "\n").map(String.init)
    for role in EveryState.roles {
      let id = ids[role]!
      let w = try await reader.write(id)
      #expect(w.stateWord == role)
      // The row, in its pane: the word, or (Blocked, whose rows give the reason) the pane's title.
      let short = ShortID.of(id, ellipsis: "…")
      let row = try #require(lines.first { $0.contains(short) }, "\(role): \(screen)")
      let words = row.split { " ·:,()│".contains($0) }.map(String.init)
      #expect(words.contains(role) || (role == "blocked" && screen.contains("Blocked 1")), "\(role): \(row)")
      // The detail's verdict line, as the detail pane and `show` draw it.
      let detail = Renderer(state: UIState(width: 160, height: 48)).detailLines(w, width: 150, waitedOnBy: [])
      let verdict = try #require(detail.map(\.plain).first { $0.hasPrefix("verdict") })
      #expect(verdict.split { " ·:,()".contains($0) }.map(String.init).contains(role), "\(role): \(verdict)")
    }
  }
}
