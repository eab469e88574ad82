import MarfaQueue

/// The `queue` command's text: one aligned row per write.
enum QueueTable {
  /// The table of `writes`, or a sentence when there are none.
  static func render(_ writes: [QueuedWrite], ascii: Bool) -> String {
    guard !writes.isEmpty else { return "the queue is empty\n" }
    let text = WriteText(ascii: ascii)
    let byId = Dictionary(writes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    var table = TextTable(headers: ["ID", "KIND", "ROWS", "VERDICT", "REASON", "REFUSALS", "STREAK", "LAST FAILURE"])
    table.ascii = ascii
    for w in writes {
      table.rows.append([
        text.visible(w.id), text.visible(w.kindName), text.rows(w), text.verdict(w, holder: holder(of: w, in: byId)),
        text.reason(w.verdict), w.refusals > 0 ? String(w.refusals) : "",
        w.environmentalStreak > 0 ? String(w.environmentalStreak) : "", text.failure(w.lastFailure),
      ])
    }
    return table.render()
  }

  /// The write a waiting write is held behind: its first unsettled dependency, else the write it follows.
  static func holder(of w: QueuedWrite, in byId: [String: QueuedWrite]) -> String? {
    guard w.waiting else { return nil }
    for id in w.dependsOn {
      guard let ahead = byId[id] else { continue }
      switch ahead.verdict {
      case nil, .blocked, .dead: return id
      default: continue
      }
    }
    return w.follows ?? w.dependsOn.first
  }
}
