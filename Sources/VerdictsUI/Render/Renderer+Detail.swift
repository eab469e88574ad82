import MarfaQueue

extension Renderer {
  /// The label column's width.
  static let labelWidth = 13

  func drawDetail(into grid: inout Grid, _ r: Rect) {
    var w = state.detailWrite
    // A page's rows carry no attempts: the detail's are read for it (AppCore).
    if w?.attempts == nil, let id = w?.id, id == state.detailAttemptsID { w?.attempts = state.detailAttempts }
    var title = TextLine("Detail", state.detailFocused ? .titleFocus : .title)
    if let w { title.append(" \(ShortID.of(w.id, ellipsis: glyphs.ellipsis))", .dim) }
    if state.detailHold != nil {
      // Held while the drain moves the selection: say which write the highlighted row is.
      let selected =
        state.selectedWrite.map { "moved to \(ShortID.of($0.id, ellipsis: glyphs.ellipsis))" } ?? "moved on"
      title.append(" \(glyphs.separator) selection \(selected)", .dim)
    }
    let inner = layout.detailBoxed ? r.inner : Rect(x: r.x, y: r.y + 1, width: r.width, height: r.height - 1)
    guard inner.width > 0 else { return }
    let lines = w.map { detailLines($0, width: inner.width) } ?? [TextLine(emptyDetailText, .dim)]
    let maxScroll = max(0, lines.count - inner.height)
    let scroll = min(state.detailScroll, maxScroll)
    var right: TextLine?
    if lines.count > inner.height {
      right = TextLine(
        "\(scroll + 1)\(glyphs.dash)\(min(lines.count, scroll + inner.height)) of \(lines.count) lines", .dim)
    }
    if layout.detailBoxed {
      drawBox(into: &grid, r, title: title, right: right, focused: state.detailFocused)
    } else {
      drawRule(
        into: &grid, Rect(x: r.x, y: r.y, width: r.width, height: 1), title: title, right: right,
        focused: state.detailFocused)
    }
    for (i, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
      line.draw(into: &grid, x: inner.x, y: inner.y + i, limit: inner.width, ellipsis: glyphs.ellipsis)
    }
  }

  var emptyDetailText: String {
    state[state.focus].loaded && state[state.focus].total == 0
      ? "no write selected: \(state.focus.title) is empty" : "no write selected"
  }

  func field(_ label: String, _ value: TextLine) -> TextLine {
    TextLine(label.padding(Self.labelWidth), .label) + value
  }

  func field(_ label: String, _ text: String, _ role: Role = .text) -> TextLine {
    field(label, TextLine(text, role))
  }

  /// The refusal in an answer's `error` object: `code · message`, or nil when it holds none.
  func lastRefusal(_ answer: String?) -> String? {
    guard let error = answer.flatMap(JSONValue.parse)?["error"] else { return nil }
    let parts = [error["code"]?.stringValue, error["message"]?.stringValue].compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: " \(glyphs.separator) ")
  }

  /// Every part of a write, line by line, wrapped to the detail's width; `waitedOnBy` names the
  /// writes that wait on it, when the caller knows them.
  func detailLines(_ w: QueuedWrite, width: Int, waitedOnBy: [String] = [], departed: Bool = false) -> [TextLine] {
    var lines: [TextLine] = []
    let sep = " \(glyphs.separator) "
    lines.append(field("id", w.id))
    if w.unknownKind != nil {
      lines.append(field("kind", w.kindWords + ": this build does not know it, so it is never sent"))
    } else {
      lines.append(field("kind", w.kind.words + " (\(w.kind.wireName))"))
    }
    if !rowsText(w).isEmpty { lines.append(field("rows", rowsText(w))) }
    if let v = w.baseVersion { lines.append(field("version", "based on \(v)")) }

    var verdict = TextLine(VerdictText.glyph(w, glyphs) + " ", VerdictText.role(w))
    switch w.verdict {
    case nil:
      verdict.append(w.waiting ? "waiting (awaiting_dependency)" : "no verdict yet", .waiting)
      verdict.append(sep + VerdictText.waitingText(w, ellipsis: glyphs.ellipsis), .text)
    case .accepted: verdict.append("accepted", .answered)
    case .merged(let fields):
      verdict.append("merged", .merged)
      if !fields.isEmpty { verdict.append(sep + "fields " + fields.joined(separator: ", ")) }
    case .conflicted(let sibling, let fields):
      verdict.append("conflicted", .conflicted)
      verdict.append(sep + "sibling \(sibling)")
      if !fields.isEmpty { verdict.append(sep + "fields " + fields.joined(separator: ", ")) }
    case .refused(let r):
      verdict.append("refused", .refused)
      verdict.append(sep + r.reason)
    case .blocked(let reason, _):
      verdict.append("blocked", .blocked)
      verdict.append(sep + reason.wireName, .blocked)
    case .dead:
      verdict.append("dead", .dead)
      verdict.append(sep + "refused \(w.refusals) times; never sent again unless released")
    }
    lines.append(field("verdict", verdict))
    if let d = w.damage {
      lines.append(field("damaged", "\(d.place) holds \(d.value), outside \(d.range); \(d.instead)", .refused))
    }
    if let status = state.status, !status.kind.isOwned {
      // verdicts never writes a store it does not own: the owner's commands, for the person to run.
      for (i, command) in CoreStore.ownerCommands(for: w, store: status.store).enumerated() {
        lines.append(field(i == 0 ? "by its owner" : "", command, .dim))
      }
    } else if !departed {
      // A write that left the queue is cleared by nothing: what undo may do is said above it.
      if let reason = w.verdict?.blockedReason { lines.append(field("clears by", VerdictText.remedy(reason), .dim)) }
      if w.verdict == .dead { lines.append(field("clears by", "release (r) sends it again under a fresh key", .dim)) }
    }

    if let r = w.verdict?.refusal {
      var head = TextLine(r.reason, .refused)
      if let code = r.code, code != r.reason { head.append(sep + "code \(code)") }
      lines.append(field("refusal", head))
      if let m = r.message { lines.append(field("message", m)) }
      for (i, f) in r.fields.enumerated() {
        var t = TextLine(f.field, .jsonKey)
        if !f.message.isEmpty { t.append(": " + f.message) }
        lines.append(field(i == 0 ? "fields" : "", t))
      }
      if r.trashed { lines.append(field("trashed", "yes: the row is in the bin and can be restored", .refused)) }
      if let g = r.grant {
        lines.append(
          field(
            "grant",
            "the key lacks \(g.level.rawValue) on \(g.kind.rawValue.replacing("_", with: " ")) \(g.name)",
            .refused))
      }
    }

    if w.verdict == .dead, let refusal = lastRefusal(w.answer) {
      // The refusal that made it dead is only in its last answer: said as a refusal line.
      lines.append(field("refusal", TextLine(refusal, .refused)))
    }

    if let kind = state.status?.kind, !kind.isOwned {
      // The Marfa core keeps no trace of environmental failures: say so rather than show nothing.
      lines.append(field("last failure", TextLine("not kept by this store (the Marfa core keeps none)", .dim)))
      lines.append(field("streak", TextLine("not kept by this store", .dim)))
    }
    if let f = w.lastFailure {
      var t = httpSpan(f.status)
      if let text = f.text {
        t.append(sep)
        t.append(text)
      } else {
        t.append(sep + "no text", .dim)
      }
      lines.append(field("last failure", t))
    }
    if w.environmentalStreak > 0 || w.lastFailure != nil {
      let n = w.environmentalStreak
      lines.append(
        field("streak", TextLine("\(n) drain\(n == 1 ? "" : "s") in a row met an environmental failure", .streak)))
    }
    if w.refusals > 0 { lines.append(field("refusals", "\(w.refusals) of \(QueueLimits.ceiling)", .refused)) }
    if !w.dependsOn.isEmpty { lines.append(field("depends on", w.dependsOn.joined(separator: ", "))) }
    if let f = w.follows { lines.append(field("follows", f)) }
    if w.waiting, let on = w.follows ?? w.dependsOn.first { lines.append(field("held by", on, .waiting)) }
    for (i, id) in waitedOnBy.enumerated() { lines.append(field(i == 0 ? "waited on by" : "", id, .waiting)) }
    if let c = w.conflictedCopyId { lines.append(field("copy", c)) }
    lines.append(field("queued", w.queuedAt))
    if let a = w.answeredAt { lines.append(field("answered", a)) }
    // A write released (or put back) goes again under a fresh key: its earlier sends are its
    // attempts, and "not yet" would deny them.
    let sentBefore = (w.attempts?.total ?? 0) > 0
    var sent = TextLine(
      w.sent ? "yes" : sentBefore ? "not under its present key (its attempts below came before)" : "not yet")
    if w.replayed { sent.append(sep + "replayed from the instance's record", .dim) }
    lines.append(field("sent", sent))
    // A summary over a link has no key until its write is read whole.
    if !w.idempotencyKey.isEmpty {
      lines.append(field("idempotency", ShortID.key(w.idempotencyKey, ellipsis: glyphs.ellipsis), .dim))
    }
    if let i = w.instanceId {
      if let now = state.status?.instanceId, now != i {
        lines.append(field("instance", TextLine(i, .blocked) + TextLine(" (the copy is now filled from \(now))", .dim)))
      } else {
        lines.append(field("instance", i, .dim))
      }
    }

    lines += attemptLines(w)

    // Bounded whatever the store holds (``detailTextLimit``): a huge body or answer shows its
    // start and says how much more there is.
    var body: [TextLine] = [TextLine("body", .label)]
    if state.detailWholePending {
      body.append(TextLine("  (reading it from the device…)", .dim))
      return lines.flatMap { $0.wrapped(width, indent: Self.labelWidth) } + wrappedBounded(body, width: width)
    }
    body += bodyLines(w)
    if let answer = w.answer {
      body.append(TextLine("answer", .label))
      body += answerLines(answer, storedBytes: w.answerBytes)
    }
    return lines.flatMap { $0.wrapped(width, indent: Self.labelWidth) } + wrappedBounded(body, width: width)
  }
}
