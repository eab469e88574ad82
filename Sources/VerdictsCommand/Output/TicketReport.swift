import FoundationEssentials
import Glibc
import MarfaQueue

/// `verdicts report`: one self-contained value for a support ticket, read without the writer
/// role (docs/cli.md, "After the fact: the archive, undo and the report").
///
/// Nothing secret travels: the store never holds the key; the origin and every text are cut of
/// a URL's userinfo (``Redaction``), and the key this process was given, if any, is replaced.
/// Bodies and answers only with `--with-bodies`. Bounded: each list (the problem writes with
/// their newest ``attemptsPerWrite`` attempts, the drains, the departed writes) stops at its
/// share of ``maxBytes`` and says how many it left out.
struct TicketReport {
  /// The report as one JSON value; the text form is made from it.
  var json: JSONValue

  /// The most bytes the report takes, as JSON or as text: a report of 20,000 blocked writes
  /// stays a page a person reads, not 680 near-identical entries.
  static let maxBytes = 100_000
  /// The share of the problem writes: a few examples of each group (``examplesPerGroup``).
  static let writesBudget = 56_000
  /// The share of the departed writes.
  static let departedBudget = 16_000
  /// The most bytes of one body or answer kept with `--with-bodies`.
  static let bodyLimit = 2_048
  /// How far back the departed writes go.
  static let departedDays = 7
  /// How many writes of each group (a blocked reason, dead, refused) the report carries; the
  /// group's count says how many there are (`verdicts queue --filter reason:R` lists them all).
  static let examplesPerGroup = 3

  /// The share of the drains before this one (``drainsKept`` of them).
  static let drainsBudget = 14_000
  /// How many of the kept drains the report carries, newest first (as `history --limit` does).
  static let drainsKept = 20
  /// How many of a problem write's attempts the report carries, newest first (`show ID` lists
  /// all the store keeps); the rest are counted in its `attempts_omitted`.
  static let attemptsPerWrite = 5

  /// Reads the report from an open copy (a reader: it never takes the writer role).
  ///
  /// The problem writes are grouped: each blocked reason, the dead, the refused, with how many
  /// each holds and its first ``examplesPerGroup`` writes in send order as examples.
  static func gather(_ copy: WorkingCopy, path: String, withBodies: Bool, key: String?) async throws -> TicketReport {
    let status = try await copy.status()
    let reasons = try await copy.queue.blockedCounts()
    var leftOut: [String] = []
    var problems: [JSONValue] = []
    var groups: [JSONValue] = []
    var used = 0
    var attemptsCut = 0
    var groupsCut = 0
    var byReason: [(pane: QueuePane, filter: String?, name: String, reason: String?)] =
      BlockedReason.allCases.filter { (reasons[$0] ?? 0) > 0 }.map {
        (.blocked, "reason:\($0.wireName)", "blocked", $0.wireName)
      }
    byReason += [(.dead, nil, "dead", nil), (.answered, "verdict:refused", "refused", nil)]
    for group in byReason {
      let page = try await copy.queue.page(group.pane, offset: 0, limit: examplesPerGroup, filter: group.filter)
      guard page.total > 0 else { continue }
      var listed = 0
      for summary in page.writes {
        let write = withBodies ? (try? await copy.queue.shownWrite(summary.id)) ?? summary : summary
        let attempts = try await copy.queue.attempts(of: summary.id)
        let value = entry(write.wireJSON, attempts: attempts, withBodies: withBodies)
        let size = value.text.utf8.count + 2
        if used + size > writesBudget { break }
        used += size
        listed += 1
        problems.append(value)
        attemptsCut += max(0, attempts.list.count - attemptsPerWrite)
      }
      if listed < page.writes.count { groupsCut += 1 }
      groups.append(
        .object([
          ("group", .string(group.name)), ("reason", group.reason.map(JSONValue.string) ?? .null),
          ("count", .int(page.total)), ("examples", .int(listed)),
          ("list_them", .string("verdicts queue --pane \(group.pane.name) --filter \(group.filter ?? "''")")),
        ]))
    }
    let shown = groups.compactMap { $0["count"]?.intValue }.reduce(0, +) - problems.count
    if shown > 0 {
      leftOut.append(
        "\(shown) problem writes past the first \(examplesPerGroup) of each group (each group's count says how many; "
          + "its list_them command lists them)")
    }
    if groupsCut > 0 {
      leftOut.append("examples of \(groupsCut) group(s) (the examples stop at \(writesBudget) bytes)")
    }
    if attemptsCut > 0 {
      leftOut.append(
        "\(attemptsCut) attempts of the problem writes, past the newest \(attemptsPerWrite) of each "
          + "(each write's attempts_omitted counts them; verdicts show ID lists the last \(WriteAttempt.kept))")
    }
    let drains = try await drainHistory(copy, leftOut: &leftOut)
    let since = Date().addingTimeInterval(-Double(departedDays) * 86_400)
    var departed: [JSONValue] = []
    var departedUsed = 0
    let kept = try await copy.queue.departed(limit: 20_000, since: since)
    for d in kept {
      let value = entry(d.wireJSON, withBodies: withBodies)
      let size = value.text.utf8.count + 2
      if departedUsed + size > departedBudget {
        leftOut.append(
          "\(kept.count - departed.count)\(kept.count == 20_000 ? " or more" : "") departed writes, the oldest "
            + "(the list stops at \(departedBudget) bytes; verdicts departed lists them)")
        break
      }
      departedUsed += size
      departed.append(value)
    }
    if !withBodies { leftOut.append("the writes' bodies and answers (--with-bodies includes them)") }
    return TicketReport(
      json: body(
        status: status, path: path, reasons: reasons, problems: problems, drains: drains, departed: departed,
        leftOut: leftOut, notKept: [], withBodies: withBodies, key: key, groups: groups))
  }

  /// Reads the report from a Marfa core store, saying what that store does not keep.
  static func gather(core: CoreStore, path: String, withBodies: Bool, key: String?) throws -> TicketReport {
    let status = try core.readStatus()
    let all = try core.readAll()
    var reasons: [BlockedReason: Int] = [:]
    var problems: [JSONValue] = []
    var used = 0
    var skipped = 0
    for w in all where [.blocked, .dead, .refused].contains(w.verdict?.name) {
      if case .blocked(let reason, _) = w.verdict { reasons[reason, default: 0] += 1 }
      let value = entry(CoreStore.wireJSON(w), withBodies: withBodies)
      let size = value.text.utf8.count + 2
      if used + size > writesBudget {
        skipped += 1
        continue
      }
      used += size
      problems.append(value)
    }
    var leftOut =
      skipped > 0 ? ["\(skipped) blocked, dead or refused writes (the list stops at \(writesBudget) bytes)"] : []
    if !withBodies { leftOut.append("the writes' bodies and answers (--with-bodies includes them)") }
    let notKept =
      [
        "the writer's record (the Marfa core store names no writer)",
        "departed writes (the Marfa core store keeps no archive of discarded, withdrawn or forgotten writes)",
        "the last drain's report",
        "each write's attempts (the Marfa core store keeps no attempt, nor a last failure or a streak)",
        "the drains before this one (the Marfa core store keeps no history of its drains)",
      ]
    return TicketReport(
      json: body(
        status: status, path: path, reasons: reasons, problems: problems, drains: [], departed: [],
        leftOut: leftOut, notKept: notKept, withBodies: withBodies, key: key))
  }

  /// A write's JSON as the report carries it: without its body and answer unless asked, and
  /// with each cut to ``bodyLimit`` when asked.
  static func entry(_ value: JSONValue, attempts: WriteAttempts? = nil, withBodies: Bool) -> JSONValue {
    var v = value
    if let attempts {
      let carried = WriteAttempts(
        list: Array(attempts.list.prefix(attemptsPerWrite)),
        omitted: attempts.omitted + max(0, attempts.list.count - attemptsPerWrite))
      for (k, member) in carried.wireMembers { v = v.setting(k, member) }
    }
    for field in ["body", "answer"] {
      guard let part = v[field], !part.isNull else { continue }
      if !withBodies {
        v = v.setting(field, .null)
        continue
      }
      let text = part.text
      if text.utf8.count > bodyLimit { v = v.setting(field, .string("(\(text.utf8.count) bytes left out)")) }
    }
    return v
  }

  /// The whole value, sections in a fixed order.
  static func body(
    status s: Status, path: String, reasons: [BlockedReason: Int], problems: [JSONValue], drains: [JSONValue],
    departed: [JSONValue], leftOut: [String], notKept: [String], withBodies: Bool, key: String?,
    groups: [JSONValue]? = nil
  ) -> JSONValue {
    func str(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
    let schema: JSONValue
    switch s.kind {
    case .verdicts(let v): schema = .int(v)
    case .marfaCore(let v): schema = .string(v)
    }
    let handle: String
    if case .reader(let reason) = s.handle { handle = "reader: \(reason)" } else { handle = "writer" }
    let value = JSONValue.object([
      (
        "report",
        .object([
          ("tool", .string(CommandTable.version)), ("build", .string(BuildStamp.words)),
          ("generated_at", .string(Timestamp.now())),
          ("bodies_included", .bool(withBodies)),
        ])
      ),
      (
        "store",
        .object([
          ("path", .string(path)), ("kind", .string(s.kind.wireName)), ("description", .string(s.kind.description)),
          ("schema", schema), ("size_bytes", .int(fileSize(path))), ("wal_bytes", .int(fileSize(path + "-wal"))),
          ("fill", .string(s.fill.rawValue)), ("expired_reason", str(s.expiredReason)),
          ("origin", str(s.origin.map(Redaction.userinfoRemoved))), ("instance_id", str(s.instanceId)),
          ("opened_as", .string(handle)),
        ])
      ),
      ("writer", s.writer?.wireJSON ?? .null),
      (
        "counts",
        .object([
          ("waiting", .int(s.counts.waiting)), ("answered", .int(s.counts.answered)),
          ("blocked", .int(s.counts.blocked)), ("dead", .int(s.counts.dead)), ("total", .int(s.counts.total)),
        ])
      ),
      (
        "blocked_reasons",
        .object(BlockedReason.allCases.compactMap { r in reasons[r].map { (r.wireName, .int($0)) } })
      ),
      ("problem_groups", groups.map(JSONValue.array) ?? .null),
      ("problem_writes", .array(problems)),
      ("last_drain", s.lastDrain?.wireJSON ?? .null),
      ("last_drain_at", str(s.lastDrainAt)),
      ("drain_history", .array(drains)),
      ("departed_last_7_days", .array(departed)),
      ("left_out", .array(leftOut.map(JSONValue.string))),
      ("not_kept", .array(notKept.map(JSONValue.string))),
    ])
    return Redaction.scrub(value, key: key)
  }

  /// The report as text: each section a heading, then `name: value` lines, indented by depth.
  func text(ascii: Bool) -> String {
    var lines: [String] = ["verdicts report", ""]
    for (name, section) in json.objectValue ?? [] {
      lines.append("== \(name.replacing("_", with: " ")) ==")
      Self.lines(section, depth: 0, into: &lines, ascii: ascii)
      lines.append("")
    }
    var text = lines.joined(separator: "\n")
    if text.utf8.count > Self.maxBytes {
      text = String(decoding: text.utf8.prefix(Self.maxBytes - 64), as: UTF8.self) + "\n(cut at 100 KB)"
    }
    return text
  }

  static func lines(_ value: JSONValue, depth: Int, into lines: inout [String], ascii: Bool) {
    let pad = String(repeating: "  ", count: depth)
    switch value {
    case .object(let members):
      if members.isEmpty { lines.append(pad + "(none)") }
      for (k, v) in members {
        if k == "attempts", let attempts = v.arrayValue, !attempts.isEmpty {
          lines.append("\(pad)\(k):")
          for a in attempts { lines.append("\(pad)  - " + attemptLine(a, ascii: ascii)) }
        } else if let scalar = scalarText(v, ascii: ascii) {
          lines.append("\(pad)\(k): \(scalar)")
        } else {
          lines.append("\(pad)\(k):")
          Self.lines(v, depth: depth + 1, into: &lines, ascii: ascii)
        }
      }
    case .array(let items):
      if items.isEmpty { lines.append(pad + "(none)") }
      for (i, item) in items.enumerated() {
        if let scalar = scalarText(item, ascii: ascii) {
          lines.append("\(pad)- \(scalar)")
        } else {
          lines.append("\(pad)[\(i + 1)]")
          Self.lines(item, depth: depth + 1, into: &lines, ascii: ascii)
        }
      }
    default:
      lines.append(pad + (scalarText(value, ascii: ascii) ?? ""))
    }
  }

  /// A scalar's text, cleaned for a terminal; nil for an object or a non-empty array.
  static func scalarText(_ value: JSONValue, ascii: Bool) -> String? {
    switch value {
    case .null: return "-"
    case .bool(let b): return b ? "yes" : "no"
    case .string(let s): return Sanitizer.clean(s, ascii: ascii)
    case .number: return value.text
    case .array(let a) where a.isEmpty: return "(none)"
    case .object(let o) where o.isEmpty: return "(none)"
    default: return nil
    }
  }

  static func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
  }
}
