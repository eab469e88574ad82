import FoundationEssentials
import MarfaQueue

extension VerdictsApp {
  /// How long a writer role held with no record (its holder took it a moment ago) waits before
  /// `watch --plain` says so: a writer that publishes within it is said once, as itself.
  static let unpublishedGrace: TimeInterval = 3

  /// `watch --plain`'s writer lines: one when a writer comes, starts a drain, meets its instance
  /// reachable or not, stalls, and goes (closes, or dies without closing), e.g.
  /// `2026-05-01T09:40:46.000Z writer: verdicts tui (pid 4211) · auto-drain on · draining 0 of 300`;
  /// and one when any writer's drain ends, from the report the store kept
  /// (`drain ended 09:41:02: answered 300, held 0, …`), or when its writer died during it.
  /// Asks every second (the writer's lock says whether it lives); prints nothing while nothing changes.
  static func followWriter(
    source: QueueSource, emit: @escaping @Sendable (String) -> Void, clock: @escaping @Sendable () -> String,
    ascii: Bool, json: Bool = false, storeLines: Bool = true, interval: Duration = .seconds(1)
  ) async {
    var last = WriterText.phase(nil)
    var lastAlive: Date?
    var first = true
    var lastFile = StoreFileState.same
    var lastDrainAt: String?
    var unpublishedSince: Date?
    var diedDrain: Date?
    var lastDrainStart: Date?
    // The newest drain of the store's history already told (or begun before this watch).
    var toldDrain: Int?
    while !Task.isCancelled {
      let file = source.storeFileState()
      if storeLines, file != lastFile {
        lastFile = file
        emit(
          json
            ? PlainJSON.store(file, time: clock())
            : clock() + " " + (WriterText.storeFile(file, at: Date()) ?? "store back as it was opened"))
      }
      let w = try? await source.writer()
      let now = Date()
      if w?.state == .live { lastAlive = now }
      // A drain that ended, whoever ran it, said once: each drain of the store's history in
      // turn (drains ending within one second each get a line, one that failed or was
      // interrupted too); the newest from the report the store kept, which says more. A store
      // that keeps no history: the report alone.
      let endedAt = try? await source.lastDrainEndedAt()
      let recent = (try? await source.history(limit: 20)) ?? []
      // Before this watch: told already (a drain running now is told when it ends).
      if toldDrain == nil {
        toldDrain = recent.filter { $0.ending == .open }.map(\.number).min().map { $0 - 1 } ?? recent.first?.number ?? 0
      }
      if recent.isEmpty {
        if endedAt != lastDrainAt, !first, let endedAt, let report = try? await source.status().lastDrain {
          emit(
            json
              ? PlainJSON.drainEnded(report, at: endedAt, time: clock(), ascii: ascii)
              : clock() + " " + DrainReportText.endLine(report, at: endedAt, ascii: ascii))
        }
      } else {
        let told = toldDrain ?? 0
        for record in recent.reversed() where record.number > told {
          if record.ending == .open { break }
          toldDrain = record.number
          // Cut short: the writer's death has its own line (below), with how far it got.
          if record.ending == .cutShort { continue }
          let fromReport = record.number == recent[0].number && endedAt != lastDrainAt
          if fromReport, let endedAt, let report = try? await source.status().lastDrain,
            [.finished, .unavailable, .stopped].contains(record.ending)
          {
            emit(
              json
                ? PlainJSON.drainEnded(report, at: endedAt, time: clock(), ascii: ascii)
                : clock() + " " + DrainReportText.endLine(report, at: endedAt, ascii: ascii))
          } else {
            emit(
              json
                ? PlainJSON.drainEnded(record, time: clock())
                : clock() + " " + DrainReportText.endLine(record, ascii: ascii))
          }
        }
      }
      lastDrainAt = endedAt
      // A drain whose writer died during it ends there: said once, with how far it got.
      if let w, w.state == .gone, let d = w.drain, diedDrain != d.startedAt {
        diedDrain = d.startedAt
        if !first || d.startedAt != lastDrainStart {
          emit(json ? PlainJSON.drainDied(w, d, time: clock()) : clock() + " " + diedLine(w, d))
        }
      }
      if w?.state == .live, let started = w?.drain?.startedAt { lastDrainStart = started }
      // A role held with no record yet is said only once it lasts (no blip as a writer starts).
      if w?.unpublished == true {
        let since = unpublishedSince ?? now
        unpublishedSince = since
        if now.timeIntervalSince(since) < unpublishedGrace, !first {
          do { try await Task.sleep(for: interval) } catch { return }
          continue
        }
      } else {
        unpublishedSince = nil
      }
      let phase = WriterText.phase(w, now: now)
      if phase != last || first {
        if json {
          // The drain in progress started, or the writer's drain stalled: a `drain` event.
          let drainMoved =
            !first && w?.state == .live && w?.drain?.startedAt != nil && phaseDrain(phase) != phaseDrain(last)
          if w != nil { emit(PlainJSON.writer(w, event: drainMoved ? "drain" : "writer", time: clock(), ascii: ascii)) }
        } else if let line = writerLine(w, now: now, lastAlive: lastAlive, ascii: ascii) {
          emit(clock() + " " + line)
        }
        last = phase
        first = false
      }
      do { try await Task.sleep(for: interval) } catch { return }
    }
  }

  /// The phase's drain-in-progress part (its start time, the second of the last three fields).
  private static func phaseDrain(_ phase: String) -> Substring? {
    let fields = phase.split(separator: " ")
    return fields.count >= 2 ? fields[fields.count - 2] : nil
  }

  /// `drain ended: pid 4211 died during it (100 of 301 sent, begun 00:05:41); no report was kept`.
  static func diedLine(_ w: WriterRecord, _ d: WriterRecord.DrainProgress) -> String {
    let who = w.pid > 0 ? "pid \(w.pid)" : "its writer"
    return "drain ended: \(who) died during it (\(d.sent) of \(d.total) sent, begun \(WriterText.clock(d.startedAt)));"
      + " no report was kept"
  }

  /// The writer's line; nil when no writer is known. The end of a drain has a line of its own
  /// (``DrainReportText/endLine(_:at:ascii:)``), from the report rather than the record.
  static func writerLine(_ w: WriterRecord?, now: Date, lastAlive: Date?, ascii: Bool) -> String? {
    guard let w else { return nil }
    return WriterText.line(w, now: now, lastAlive: lastAlive, ascii: ascii)
  }
}
