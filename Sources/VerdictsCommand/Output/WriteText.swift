import MarfaQueue

/// Words for one write's cells in the text tables, made safe for a terminal.
struct WriteText {
  /// Whether only ASCII glyphs may be used.
  var ascii: Bool

  func visible(_ text: String) -> String { Sanitizer.clean(text, ascii: ascii) }

  /// The rows a write names: `item 1 -> 2`, `edge e1`, `ns app`, `#tag`, `blob 3f2a…`.
  func rows(itemId: String?, targetId: String?, edgeId: String?, namespace: String?, tag: String?, blob: String?)
    -> String
  {
    let names = RowName.list(
      itemId: itemId, targetId: targetId, edgeId: edgeId, namespace: namespace, tag: tag, blob: blob)
    return visible(RowName.words(names, arrow: ascii ? "->" : "→"))
  }

  /// The rows of a queued write.
  func rows(_ w: QueuedWrite) -> String { visible(RowName.words(w.rowNames, arrow: ascii ? "->" : "→")) }

  /// The write's one word (``QueuedWrite/stateWord``: the verdict's name, `queued`, `sent`,
  /// `undelivered`), or `waiting on <id>`.
  func verdict(_ w: QueuedWrite, holder: String?) -> String {
    if w.verdict == nil, w.waiting { return holder.map { "waiting on \(visible($0))" } ?? "waiting" }
    return w.stateWord
  }

  /// The reason under the verdict: the blocked reason, or the refusal's reason (the instance's code).
  func reason(_ verdict: Verdict?) -> String {
    switch verdict {
    case .blocked(let reason, _): return reason.wireName
    case .refused(let refusal): return visible(refusal.reason)
    case .merged(let fields), .conflicted(_, let fields):
      return fields.isEmpty ? "" : visible("fields " + fields.joined(separator: ","))
    default: return ""
    }
  }

  /// The last failure: `503 text`, `no answer`, or nothing.
  func failure(_ f: LastFailure?) -> String {
    guard let f else { return "" }
    let status = f.status.map(String.init) ?? "no answer"
    guard let text = f.text, !text.isEmpty else { return status }
    return status + " " + visible(text)
  }
}
