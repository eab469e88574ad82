import Foundation
import MarfaQueue
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A store whose numbers were set to anything (`sqlite3 S "update pane_counts
/// set n=-9223372036854775808"`) never ends the screen or a command by a signal: each number is
/// checked where it is read, the damage is said once, and the panes draw from what can be read.
/// Through the built binary; the screen on a pseudo-terminal of its own (``ScreenPty``).
@Suite(.serialized) struct DamagedStoreScreenTests {
  /// The signals a crash ends a process with.
  static let crashSignals: Set<Int32> = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT]

  /// The extremes every integer is set to.
  static let extremes: [Int64] = [Int64.min, Int64.max, -1, 1 << 62]

  /// The values each place is set to on its own: the two ends of the range, and with `SOAK=1`
  /// every extreme (the at-once test sets every place to each extreme in every form).
  static let eachPlaceValues: [Int64] = Soak.on ? extremes : [Int64.min, Int64.max]

  /// The ids of the base store's writes, by role.
  struct BaseStore {
    var folder: TempFolder
    var ids: [String: String]
    var path: String { folder.store }
  }

  /// A store holding a write in each pane and of each shape the screen draws (an update with a
  /// base version, a refused and a dead write with refusals, a blocked one with a last failure
  /// and a streak), a writer's record and a last drain, every number of them ordinary.
  static func baseStore() throws -> BaseStore {
    let t = TempFolder()
    var ids: [String: String] = [:]
    for role in ["accepted", "refused", "dead", "blocked", "waiting", "update"] {
      let line =
        role == "update"
        ? ["--json", "items", "update", "item-accepted", "--properties", #"{"n":2}"#, "--as-read"]
        : ["--json", "items", "create", "--type", "note", "--id", "item-\(role)", "--properties", #"{"n":1}"#]
      let r = try Binary.run(line, store: t.store, home: t.path)
      guard r.code == 0, let id = r.json?["id"]?.stringValue else { throw FixtureError("\(line): \(r)") }
      ids[role] = id
    }
    let refusal = #"{"error":{"code":"validation_error","message":"m"}}"#
    try SQLiteScript.run(
      """
      UPDATE queue SET verdict = 'accepted', sent = 1, answered_at = '2026-12-01T10:00:00.000Z' WHERE id = '\(ids["accepted"]!)';
      UPDATE queue SET verdict = 'refused', reason = 'validation_error', refusals = 1, sent = 1,
        answer = '\(refusal)' WHERE id = '\(ids["refused"]!)';
      UPDATE queue SET verdict = 'dead', refusals = 5, sent = 1, answer = '\(refusal)' WHERE id = '\(ids["dead"]!)';
      UPDATE queue SET verdict = 'blocked', reason = 'failing_alone', sent = 1, last_failure_status = 500,
        last_failure_text = 'boom', environmental_streak = 3 WHERE id = '\(ids["blocked"]!)';
      INSERT OR REPLACE INTO meta (key, value) VALUES ('writer',
        '{"program":"verdicts","mode":"tui","pid":4242,"host":"h","started_at_ms":1796177994534,
          "updated_at_ms":1796177994605,"closed_at_ms":null,"auto_drain":true,"key_refused":false,
          "drain":{"started_at_ms":1796177994568,"ended_at_ms":null,"total":6,"sent":3,"answered":2,
            "verdicts":{"accepted":2}},
          "last_drain":{"started_at_ms":1796177994568,"ended_at_ms":1796177994604,"total":6,"sent":6,
            "answered":6,"verdicts":{"accepted":6}}}');
      INSERT OR REPLACE INTO meta (key, value) VALUES ('last_drain',
        '{"answered":6,"held":1,"undelivered":1,"unsent":0,"unmade":0,"unavailable":null,"verdicts_omitted":0,
          "verdict_counts":{"accepted":6},"stopped":null,"unclaimed_sources":[],"retry_after_seconds":30,
          "started_at":"2026-12-02T02:19:54.557Z","ended_at":"2026-12-02T02:19:54.603Z"}');
      INSERT OR REPLACE INTO meta (key, value) VALUES ('last_drain_at', '2026-12-02T02:19:54.603Z');
      INSERT OR REPLACE INTO meta (key, value) VALUES ('last_drain_verdicts',
        '[{"id":"\(ids["accepted"]!)","kind":"create_item","item_id":"item-accepted","edge_id":null,
          "verdict":"accepted","reason":null,"conflicted_copy_id":null,"refusals":0,"replayed":false,
          "merged_fields":[],"refusal":null}]');
      """, on: t.store)
    return BaseStore(folder: t, ids: ids)
  }

  /// One place an integer sits, and the SQL that sets it to a value.
  struct Place: Sendable, CustomStringConvertible {
    var description: String
    var sql: @Sendable (_ value: Int64, _ ids: [String: String]) -> String
  }

  /// Every integer the screen and the commands read from a store.
  static let places: [Place] = {
    func queue(_ column: String, _ role: String) -> Place {
      Place(description: "queue.\(column) (\(role))") { v, ids in
        "UPDATE queue SET \(column) = \(v) WHERE id = '\(ids[role]!)'"
      }
    }
    func meta(_ key: String, _ path: String) -> Place {
      Place(description: "meta.\(key) \(path)") { v, _ in
        "UPDATE meta SET value = json_set(value, '$.\(path)', \(v)) WHERE key = '\(key)'"
      }
    }
    var out: [Place] = (0..<4).map { pane in
      Place(description: "pane_counts.n (pane \(pane))") { v, _ in
        "UPDATE pane_counts SET n = \(v) WHERE pane = \(pane)"
      }
    }
    out += [
      queue("seq", "waiting"), queue("seq", "accepted"), queue("base_version", "update"), queue("refusals", "refused"),
      queue("refusals", "dead"), queue("last_failure_status", "blocked"), queue("environmental_streak", "blocked"),
      queue("environmental_streak", "waiting"), queue("sent", "waiting"), queue("waiting", "waiting"),
      queue("replayed", "accepted"), queue("withdrawn_dependency", "refused"),
      Place(description: "change_log.n") { v, ids in
        "INSERT INTO change_log (n, id) VALUES (\(v), '\(ids["waiting"]!)')"
      },
      Place(description: "departures.n") { v, _ in
        "INSERT INTO departures (n, id, event) VALUES (\(v), 'gone-1', 'withdrawn')"
      },
      Place(description: "rows.version") { v, _ in "UPDATE rows SET version = \(v)" },
      Place(description: "meta.schema_version") { v, _ in "UPDATE meta SET value = '\(v)' WHERE key = 'schema_version'"
      },
    ]
    out += ["pid", "started_at_ms", "updated_at_ms", "closed_at_ms"].map { meta("writer", $0) }
    out += ["started_at_ms", "ended_at_ms", "total", "sent", "answered", "verdicts.accepted"].flatMap {
      [meta("writer", "drain.\($0)"), meta("writer", "last_drain.\($0)")]
    }
    out += [
      "answered", "held", "undelivered", "unsent", "unmade", "verdicts_omitted", "retry_after_seconds",
      "verdict_counts.accepted",
    ].map { meta("last_drain", $0) }
    out.append(meta("last_drain_verdicts", "[0].refusals"))
    return out
  }()

  /// A copy of the base store with `place` set to `value`.
  static func damaged(_ base: BaseStore, _ place: Place, _ value: Int64) throws -> TempFolder {
    let t = TempFolder()
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: base.path + suffix) {
      try FileManager.default.copyItem(atPath: base.path + suffix, toPath: t.store + suffix)
    }
    try SQLiteScript.run(place.sql(value, base.ids), on: t.store)
    return t
  }

  /// Runs a command to its end; the signal that ended it, or nil, and what it printed.
  static func runCommand(_ arguments: [String], _ t: TempFolder) throws -> (signal: Int32?, code: Int32, out: String) {
    let p = try Spawned(arguments, environment: Binary.environment(store: t.store, home: t.path, [:]))
    guard p.wait(timeout: 30) else {
      p.kill()
      throw Binary.SpawnFailure(message: "\(arguments) ran past 30 s")
    }
    let signal = p.process.terminationReason == .uncaughtSignal ? p.process.terminationStatus : nil
    return (signal, p.process.terminationStatus, p.stdout + p.stderr)
  }

  /// The screen (`watch`) on a terminal of its own: every pane visited, the detail focused and
  /// scrolled, then `q`. Returns what went wrong, empty when nothing did.
  ///
  /// With `refused`, the store is one the screen refuses to open (another schema): it must say
  /// so and end, exit 4, the terminal as it was.
  static func runScreen(_ t: TempFolder, _ label: String, refused: Bool = false) throws -> [String] {
    let pty = try ScreenPty(
      ["--store", t.store, "watch"], environment: Binary.environment(store: nil, home: t.path, [:]), width: 120,
      height: 40)
    defer { pty.stop() }
    var problems: [String] = []
    if refused {
      if !pty.waitForExit(timeout: 10) { problems.append("\(label): a refused store did not end it in 10 s") }
      if pty.process.terminationStatus != 4 || pty.signal != nil {
        problems.append("\(label): a refused store: exit \(pty.process.terminationStatus), signal \(pty.signal ?? 0)")
      }
      if !pty.modesRestored { problems.append("\(label): the terminal's modes were not restored") }
      return problems
    }
    if !pty.waitFor("Detail", timeout: 10) { problems.append("\(label): no first frame in 10 s") }
    for key in ["1", "j", "2", "j", "3", "4", "\r", "j", "G", "\r", "s", "s"] {
      pty.type(key)
      // Keys paced as a person types them, so each frame is drawn.
      usleep(30_000)
    }
    pty.type("q")
    if !pty.waitForExit(timeout: 10) { problems.append("\(label): q did not end it in 10 s") }
    if let s = pty.signal { problems.append("\(label): ended by signal \(s)") }
    if pty.process.terminationStatus != 0 && pty.signal == nil {
      problems.append("\(label): exit \(pty.process.terminationStatus): \(pty.text.suffix(300).debugDescription)")
    }
    if !pty.modesRestored { problems.append("\(label): the terminal's modes were not restored") }
    return problems
  }

  @Test("a pane count of Int64.min is counted again said once on the status line and the screen quits cleanly")
  func aPaneCountOfInt64MinIsCountedAgainSaidOnceOnTheStatusLineAndTheScreenQuitsCleanly() throws {
    let base = try Self.baseStore()
    let t = try Self.damaged(base, Self.places[0], Int64.min)
    let pty = try ScreenPty(
      ["--store", t.store, "watch"], environment: Binary.environment(store: nil, home: t.path, [:]), width: 160,
      height: 40)
    defer { pty.stop() }
    #expect(pty.waitFor("the store is damaged", timeout: 10), "\(pty.text.suffix(2000).debugDescription)")
    // Waiting is drawn from the writes the store holds: counted again along its index.
    #expect(pty.text.contains("Waiting 2"), "\(pty.text.suffix(3000).debugDescription)")
    #expect(pty.text.contains("pane_counts.n (waiting) holds -9223372036854775808"))
    pty.type("q")
    #expect(pty.waitForExit(timeout: 10))
    #expect(pty.signal == nil, "ended by signal \(pty.signal ?? 0)")
    #expect(pty.process.terminationStatus == 0)
    #expect(pty.modesRestored, "echo and line editing were not given back")
    // The commands read the same store the same way, and say it once on standard error.
    let status = try Binary.run(["--json", "status"], store: t.store, home: t.path)
    #expect(status.code == 0, "\(status)")
    #expect(status.json?["counts"]?["waiting"]?.intValue == 2, "\(status)")
    #expect(status.stderr.contains("store_damaged"), "\(status)")
  }

  @Test func everyIntegerTheScreenAndTheCommandsReadAtItsExtremesEndsNothingBySignal() throws {
    let base = try Self.baseStore()
    let problems = SharedValue<[String]>([])
    var cases = 0
    for (i, place) in Self.places.enumerated() {
      for value in Self.eachPlaceValues {
        let t = try Self.damaged(base, place, value)
        let label = "\(place) = \(value)"
        cases += 1
        // The row the place damages, else any: its detail is where its numbers are drawn.
        let role = base.ids.keys.sorted().first { place.description.hasSuffix("(\($0))") } ?? "waiting"
        // One process at a time (the target's other suites time themselves).
        let lines = [["--json", "status"], ["show", base.ids[role]!], ["queue"]]
        for line in lines {
          let r = try Self.runCommand(line, t)
          if let s = r.signal, Self.crashSignals.contains(s) {
            problems.update {
              $0.append("\(label): `\(line.joined(separator: " "))` ended by signal \(s): \(r.out.suffix(300))")
            }
          }
        }
        // The screen at one end of the range per place, in turn (the other values go through
        // the same reads, and ``everyIntegerAtOnce…`` draws every place at each value).
        if value == (i % 2 == 0 ? Int64.min : Int64.max) {
          let refused = place.description.hasPrefix("meta.schema_version")
          let found = try Self.runScreen(t, label, refused: refused)
          problems.update { $0 += found }
        }
      }
    }
    #expect(cases == Self.places.count * Self.eachPlaceValues.count)
    #expect(problems.value.isEmpty, "\(problems.value.joined(separator: "\n"))")
  }

  @Test func everyIntegerAtOnceAtEachExtremeLeavesTheScreenAndTheCommandsRunningCleanly() throws {
    let base = try Self.baseStore()
    var problems: [String] = []
    // The writer's record is left out whole when one of its numbers is out of range: one of its
    // places at a time, so each is read (the others at once).
    let writerPlaces = Self.places.filter { $0.description.hasPrefix("meta.writer") }
    // (One send order at a time: two rows cannot share one.)
    let others = Self.places.filter {
      !$0.description.hasPrefix("meta.writer") && !$0.description.hasPrefix("meta.schema")
        && $0.description != "queue.seq (accepted)"
    }
    for value in Self.extremes {
      let t = TempFolder()
      try FileManager.default.copyItem(atPath: base.path, toPath: t.store)
      let writer = writerPlaces[Self.extremes.firstIndex(of: value)! % writerPlaces.count]
      try SQLiteScript.run((others + [writer]).map { $0.sql(value, base.ids) }.joined(separator: ";\n"), on: t.store)
      problems += try Self.runScreen(t, "every place = \(value)")
      for line in [["--json", "status"], ["queue"], ["--json", "queue"]]
        + base.ids.values.sorted().map({ ["show", $0] })
      {
        let r = try Self.runCommand(line, t)
        if let s = r.signal, Self.crashSignals.contains(s) {
          problems.append("every place = \(value): `\(line.joined(separator: " "))` ended by signal \(s)")
        }
      }
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test func timesOutOfEveryRangeInTheStoreEndNothingBySignal() throws {
    let base = try Self.baseStore()
    var problems: [String] = []
    for time in [
      "99999999-12-31T23:59:59.999Z", "-9999-01-01T00:00:00Z", "0000-00-00T00:00:00Z", "9223372036854775807", "",
    ] {
      for value in ["1e308", "-1e308", "9223372036854775808", "1.5"] {
        let t = TempFolder()
        try FileManager.default.copyItem(atPath: base.path, toPath: t.store)
        try SQLiteScript.run(
          """
          UPDATE queue SET queued_at = '\(time)', answered_at = '\(time)';
          UPDATE meta SET value = '\(time)' WHERE key = 'last_drain_at';
          UPDATE meta SET value = json_set(value, '$.started_at', '\(time)', '$.ended_at', '\(time)') WHERE key = 'last_drain';
          UPDATE meta SET value = json_set(value, '$.started_at_ms', \(value), '$.updated_at_ms', \(value),
            '$.drain.started_at_ms', \(value), '$.drain.total', \(value)) WHERE key = 'writer';
          """, on: t.store)
        let label = "times '\(time)', \(value)"
        for line in [["status"], ["--json", "status"], ["queue"], ["show", base.ids["accepted"]!]] {
          let r = try Self.runCommand(line, t)
          if let s = r.signal, Self.crashSignals.contains(s) {
            problems.append("\(label): \(line) ended by signal \(s)")
          }
        }
        if value == "1e308" { problems += try Self.runScreen(t, label) }
      }
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }
}
