import MarfaQueue
import Testing

@testable import VerdictsCommand

/// Text output, the sanitizer, and how failures map to codes and exits.
@Suite struct OutputTests {
  static let hostile = "bad\u{1b}[2J\u{1b}]0;pwned\u{07} \u{202e}txt.exe\u{9b}31m\r\nend\u{7f}"

  @Test func theSanitizerShowsEveryControlAndDirectionCharacter() {
    let shown = Sanitizer.clean(Self.hostile, ascii: false)
    #expect(shown == "bad␛[2J␛]0;pwned␇ \\u{202e}txt.exe\\u{009b}31m␍␊end␡")
    let ascii = Sanitizer.clean(Self.hostile, ascii: true)
    #expect(
      ascii == "bad\\u{001b}[2J\\u{001b}]0;pwned\\u{0007} \\u{202e}txt.exe\\u{009b}31m\\u{000d}\\u{000a}end\\u{007f}")
    #expect(Sanitizer.clean("plain — ünïcode ✓ 日本", ascii: false) == "plain — ünïcode ✓ 日本")
  }

  /// Nothing printed in text mode carries a raw control or direction character.
  static func isSafe(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { s in
      Sanitizer.replacement(s) == nil || s == "\n"
    }
  }

  static func write(
    _ id: String, verdict: Verdict? = nil, waiting: Bool = false, dependsOn: [String] = [], follows: String? = nil,
    failure: LastFailure? = nil, streak: Int = 0, refusals: Int = 0
  ) -> QueuedWrite {
    QueuedWrite(
      id: id, kind: .updateItem, itemId: "item-\(id)", idempotencyKey: "k-\(id)", dependsOn: dependsOn,
      follows: follows,
      verdict: verdict, waiting: waiting, refusals: refusals, lastFailure: failure, environmentalStreak: streak,
      queuedAt: "2026-01-01T00:00:00.000Z")
  }

  @Test func theQueueTableShowsVerdictsWaitingReasonsStreaksAndFailures() {
    let writes = [
      Self.write(
        "w1", verdict: .blocked(reason: .failingAlone), failure: LastFailure(status: 500, text: Self.hostile), streak: 3
      ),
      Self.write("w2", waiting: true, dependsOn: ["w1"], follows: "w1"),
      Self.write("w3", verdict: .refused(Refusal(reason: "validation\u{1b}[31m", code: "validation"))),
      Self.write("w4", verdict: .dead, refusals: 5),
      Self.write("w5", verdict: .merged(fields: ["title"])),
      Self.write("w6", failure: LastFailure(status: nil, text: nil), streak: 1),
    ]
    let text = QueueTable.render(writes, ascii: false)
    #expect(Self.isSafe(text))
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.count == 7)
    #expect(lines[0].hasPrefix("ID  KIND         ROWS     VERDICT"))
    #expect(lines[1].contains("blocked") && lines[1].contains("failing_alone") && lines[1].contains("500 bad␛[2J"))
    #expect(lines[1].contains("  3  "))
    #expect(lines[2].contains("waiting on w1"))
    #expect(lines[3].contains("refused") && lines[3].contains("validation␛[31m"))
    #expect(lines[4].contains("dead") && lines[4].hasSuffix("  5"))
    #expect(lines[5].contains("merged") && lines[5].contains("fields title"))
    // A write that met an environmental failure is `undelivered`, as every view says.
    #expect(lines[6].contains("undelivered") && lines[6].hasSuffix("no answer"))
    // Columns line up: every row's VERDICT starts where the header's does.
    let column = lines[0].range(of: "VERDICT")!.lowerBound.utf16Offset(in: lines[0])
    for line in lines.dropFirst() {
      let start = line.index(line.startIndex, offsetBy: column)
      #expect(line[start] != " " && line[line.index(before: start)] == " ", "\(line)")
    }
    #expect(QueueTable.render([], ascii: false) == "the queue is empty\n")
  }

  @Test func edgeRowsUseASCIIArrowsWhenAsked() {
    let edge = QueuedWrite(
      id: "e", kind: .createEdge, itemId: "a", targetId: "b", edgeId: "e1", idempotencyKey: "k", queuedAt: "t")
    #expect(QueueTable.render([edge], ascii: false).contains("edge e1 a → b"))
    #expect(QueueTable.render([edge], ascii: true).contains("edge e1 a -> b"))
  }

  @Test func theDrainReportInWords() {
    let report = DrainReport(
      answered: 3, held: 1, undelivered: 2, unsent: 1, unmade: 0,
      verdicts: [
        DrainVerdict(id: "w1", kind: .createItem, itemId: "i1", verdict: .accepted, replayed: true),
        DrainVerdict(id: "w2", kind: .updateItem, itemId: "i1", verdict: .refused(Refusal(reason: "not_found"))),
        DrainVerdict(id: "w3", kind: .deleteEdge, edgeId: "e1", verdict: .blocked(reason: .keySpent)),
        DrainVerdict(id: "w4", kind: .addTag, itemId: "i2", verdict: nil, refusals: 2),
      ],
      unavailable: "the instance answered 503\u{1b}[2J", stopped: nil, unclaimedSources: ["crm"], retryAfterSeconds: 12)
    // In ASCII form (--ascii, or a locale that is not UTF-8), every byte is ASCII.
    let asciiText = DrainText.render(report, ascii: true)
    #expect(asciiText.utf8.allSatisfy { $0 < 0x80 }, "\(asciiText)")
    #expect(asciiText.contains("503\\u{001b}[2J"))
    let text = DrainText.render(report, ascii: false)
    #expect(Self.isSafe(text))
    // The counts and why it ended, on one line in the words every view uses.
    #expect(
      text.hasPrefix(
        "answered 3, held 1, undelivered 2, unsent 1, unmade 0; unavailable: the instance answered 503␛[2J;"
          + " retry after 12 s\n"))
    #expect(text.contains("unclaimed sources: crm\n"))
    #expect(text.contains("replayed"))
    #expect(text.contains("key_spent"))
    #expect(text.contains("unanswered"))
    #expect(text.hasSuffix("refused 1 write(s)\n"))
    #expect(!DrainText.render(DrainReport(), ascii: false).contains("refused"))
  }

  @Test func aBoundedDrainReportSaysHowManyVerdictsItLeftOutAndCountsRefusalsOverAll() {
    var report = DrainReport(answered: 3)
    report.verdicts = [DrainVerdict(id: "w3", kind: .createItem, verdict: .accepted)]
    report.verdictsOmitted = 2
    report.verdictCounts = ["accepted": 1, "refused": 2]
    let text = DrainText.render(report, ascii: false)
    #expect(text.contains("2 earlier verdict(s) not listed"), "\(text)")
    #expect(text.hasSuffix("refused 2 write(s)\n"), "\(text)")
    #expect(!DrainText.render(DrainReport(answered: 1), ascii: false).contains("not listed"))
    let json = report.wireJSON
    #expect(json["verdicts_omitted"]?.intValue == 2)
    #expect(json["verdicts"]?.arrayValue?.count == 1)
  }

  @Test func aDrainEndsWithTheExitItsReportCallsFor() {
    #expect(CommandFailure(drained: DrainReport(answered: 4)) == nil)
    let refusedOnly = DrainReport(
      answered: 1, verdicts: [DrainVerdict(id: "w", kind: .createItem, verdict: .refused(Refusal(reason: "x")))])
    #expect(CommandFailure(drained: refusedOnly) == nil)
    let undelivered = CommandFailure(drained: DrainReport(undelivered: 2, retryAfterSeconds: 9))
    #expect(undelivered?.exit == .environment)
    #expect(undelivered?.code == "network")
    #expect(undelivered?.retryAfterSeconds == 9)
    #expect(CommandFailure(drained: DrainReport(unavailable: "no contract"))?.exit == .environment)
    let stopped = CommandFailure(drained: DrainReport(undelivered: 3, stopped: "the key was refused; 3 row(s) parked"))
    #expect(stopped?.exit == .credential)
    #expect(stopped?.code == "unauthorized")
  }

  /// Every queue error has a code and an exit code, as docs/cli.md lists them.
  @Test(arguments: [
    (QueueError.notFound(id: "x"), "not_found", ExitCode.deviceRule),
    (.readingHandle(reason: "r"), "reading_handle", .deviceRule),
    (.hydrationIncomplete, "hydration_incomplete", .deviceRule),
    (.copyExpired(reason: "catchup_too_old"), "copy_expired", .deviceRule),
    (.noCursor, "no_cursor", .deviceRule),
    (.wrongSchema(path: "/p", unsent: 2), "wrong_schema", .deviceRule),
    (.invalid(message: "m"), "invalid", .deviceRule),
    (.noServer, "no_server", .usage),
    (.noStore(path: "/p"), "no_store", .usage),
    (.network(message: "m"), "network", .environment),
    (.contractMismatch(served: "3"), "contract_mismatch", .refused),
    (.rootContractMismatch(served: nil, instance: "http://h"), "contract_mismatch", .refused),
    (.redirected(status: 301, location: nil, instance: "http://h"), "redirect", .refused),
    (.storageFull(message: "m"), "storage_full", .environment),
    (.store(path: "/p", message: "m"), "store", .environment),
    (.closed, "closed", .environment),
    (.server(status: 403, code: "forbidden", message: "no"), "server", .refused),
  ])
  func queueErrorsMapToCodesAndExits(_ error: QueueError, code: String, exit: ExitCode) {
    let failure = CommandFailure(error)
    #expect(failure.code == code)
    #expect(failure.exit == exit)
    let envelope = failure.envelope
    #expect(envelope["error"]?["code"]?.stringValue == code)
    // The engine names no flag; the command line adds where an instance URL comes from.
    // With no store, it adds the next step.
    var message = error == .noServer ? error.message + " (--url or MARFA_API_URL)" : error.message
    if case .noStore = error {
      message +=
        "; `verdicts demo` shows the tour on a scripted instance, `verdicts fill --url URL` makes one from an instance"
    }
    #expect(envelope["error"]?["message"]?.stringValue == message)
    #expect(envelope["exit"]?.intValue == Int(exit.rawValue))
    if case .server(let status, let serverCode, _) = error {
      #expect(envelope["error"]?["server"]?["status"]?.intValue == status)
      #expect(envelope["error"]?["server"]?["code"]?.stringValue == serverCode)
    } else if case .redirected(let status, _, _) = error {
      #expect(envelope["error"]?["server"]?["status"]?.intValue == status)
    } else {
      #expect(envelope["error"]?["server"] == .null)
    }
  }

  @Test func aFailureMessageIsPrintedSafely() async {
    let output = CapturedOutput()
    let globals = GlobalOptions(ParsedArguments(), environment: ["LANG": "C.UTF-8"])
    let code = VerdictsCLI.report(
      CommandFailure(QueueError.server(status: 400, code: "bad", message: Self.hostile)), globals: globals,
      output: output)
    #expect(code == 1)
    #expect(output.stderr.hasPrefix("verdicts: the instance refused (400 bad): bad␛[2J"))
    #expect(Self.isSafe(output.stderr))
  }

  @Test func outsideAUTF8LocaleAFailureMessageIsPrintedInASCIIOnly() async {
    for environment in [[:], ["LANG": "C"], ["LC_ALL": "POSIX", "LANG": "C.UTF-8"]] {
      let output = CapturedOutput()
      let globals = GlobalOptions(ParsedArguments(), environment: environment)
      _ = VerdictsCLI.report(
        CommandFailure(QueueError.server(status: 400, code: "bad", message: Self.hostile + " Л")), globals: globals,
        output: output)
      #expect(output.stderr.hasPrefix("verdicts: the instance refused (400 bad): bad\\u{001b}[2J"), "\(environment)")
      #expect(output.stderr.utf8.allSatisfy { $0 < 0x80 }, "\(environment)")
    }
  }

  @Test func textTablesTrimTrailingSpace() {
    let table = TextTable(headers: ["A", "LONGER", "C"], rows: [["1", "", ""], ["22", "x", "y"]])
    #expect(table.render() == "A   LONGER  C\n1\n22  x       y\n")
  }

  @Test func statusInWordsAndJSON() {
    let status = Status(
      store: "/s", handle: .reader(reason: "another process holds the writer role"), fill: .expired,
      expiredReason: "instance_changed", origin: "http://127.0.0.1:1", instanceId: "inst", cursor: "c9",
      counts: QueueCounts(waiting: 1, answered: 2, blocked: 3, dead: 4),
      lastDrain: DrainReport(answered: 2, undelivered: 1, unavailable: "down"), lastDrainAt: "2026-01-01T00:00:00Z")
    let text = StatusText.render(status, ascii: false)
    #expect(text.contains("writer      taken: another process holds the writer role\n"))
    #expect(text.contains("fill        expired (instance_changed)\n"))
    #expect(text.contains("queue       1 waiting, 2 answered, 3 blocked, 4 dead\n"))
    #expect(
      text.contains(
        "last drain  2026-01-01T00:00:00Z: answered 2, held 0, undelivered 1, unsent 0, unmade 0; unavailable: down\n"))
    let json = StatusText.json(status)
    #expect(json["handle"]?.stringValue == "reader")
    #expect(json["counts"]?["total"]?.intValue == 10)
    #expect(json["last_drain"]?["unavailable"]?.stringValue == "down")
    #expect(json["expired_reason"]?.stringValue == "instance_changed")
  }
}
