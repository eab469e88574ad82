import MarfaQueue

/// The app's lookups that read several pages: the writes naming a row (`:`), and the first few
/// writes a confirmation lists.
extension QueueSource {
  /// The writes that name `row` as their item, target or edge (a `row:` filter term, the ID
  /// taken as it is, no pattern), pane by pane in send order: each with its pane, at most 200.
  func writes(namingRow row: String) async throws -> [(QueuePane, String)] {
    let id = row.trimmingSpaces()
    guard !id.isEmpty, !id.contains(where: { $0 == " " || $0 == "*" || $0 == "?" || $0 == "[" }) else { return [] }
    var found: [(QueuePane, String)] = []
    for pane in QueuePane.allCases {
      let page = try await page(pane, offset: 0, limit: 200, filter: "row:\(id)", order: .sendOrder)
      found += page.writes.map { (pane, $0.id) }
      if found.count >= 200 { break }
    }
    return found
  }

  /// The first few writes an action the engine chooses would take, in send order: for a take,
  /// answered writes that may be cleared (``QueuedWrite/allows(_:)``, as the engine's rule);
  /// for a release by reason, the writes blocked for it.
  func examples(for pending: PendingAction) async throws -> [String] {
    switch pending {
    case .take:
      var found: [String] = []
      var offset = 0
      // A page at a time, as far as a few pages: refused writes with content stay behind.
      while found.count < PendingAction.listedInDialog, offset < 2_000 {
        let page = try await page(.answered, offset: offset, limit: 200, filter: nil, order: .sendOrder)
        found += page.writes.filter { $0.allows(.forget).isAllowed }.map(\.id)
        if page.writes.count < 200 { break }
        offset += 200
      }
      return Array(found.prefix(PendingAction.listedInDialog))
    case .releaseReason(let reason, _):
      let page = try await page(
        .blocked, offset: 0, limit: PendingAction.listedInDialog, filter: "reason:\(reason.wireName)", order: .sendOrder
      )
      return page.writes.map(\.id)
    default:
      return Array(pending.ids.prefix(PendingAction.listedInDialog))
    }
  }
}
