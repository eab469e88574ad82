import Foundation
import MarfaQueue
import TestSupport
import Testing

@testable import VerdictsCommand

#if canImport(Glibc)
  import Glibc
#endif

/// `verdicts metrics` through the built binary, on a store real drains wrote against the scripted
/// instance's tour (every pane, every blocked reason, a dead write, drains that ended each way), and
/// through `promtool` (docs/monitoring.md).
@Suite(.serialized) struct MetricsBinaryTests {
  /// `promtool`, from Debian's `prometheus` (`make deps` installs it).
  static func promtool() throws -> String {
    let path = "/usr/bin/promtool"
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw Binary.BinaryMissing(
        message: "promtool is not installed; `make deps` installs it (apt-get install prometheus)")
    }
    return path
  }

  /// `promtool check metrics` on `text`: its exit status and what it said.
  static func checkMetrics(_ text: String) throws -> ChildRun {
    try ChildProcess.run(try promtool(), ["check", "metrics"], input: Data(text.utf8), errorsToOutput: true)
  }

  /// The samples of an exposition: `name{labels}` to its value.
  static func samples(_ text: String) -> [String: Double] {
    var out: [String: Double] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
      out[String(line[..<space])] = value
    }
    return out
  }

  /// A store the tour's drains wrote (``DemoDriver``: fill, the tour's writes, its drains against
  /// the scripted instance), at `t.store`, its writer still open in this process.
  static func touredStore(_ t: TempFolder) async throws -> DemoDriver {
    let demo = try await DemoDriver.start(storePath: t.store)
    await demo.walkTour(pause: 0.05) { _ in }
    return demo
  }

  @Test func aDrainedStoresWritesAreCountedPerPaneAndPerBlockedReasonAsTheQueueHoldsThem() async throws {
    let t = TempFolder()
    let demo = try await Self.touredStore(t)
    let counts = try await demo.copy.queue.counts()
    let reasons = try await demo.copy.queue.blockedCounts()
    let all = try await demo.copy.queue.all()
    let history = try await demo.copy.history()
    let r = try await offThePool { try Binary.run(["metrics"], store: t.store, home: t.path) }
    #expect(r.code == 0, "\(r)")
    #expect(r.stderr.isEmpty, "\(r)")
    let s = Self.samples(r.stdout)
    for pane in QueuePane.allCases {
      #expect(s["verdicts_writes{pane=\"\(pane.name)\"}"] == Double(counts[pane]), "\(pane)")
    }
    #expect(counts.blocked > 0 && counts.dead > 0 && counts.waiting > 0 && counts.answered > 0, "\(counts)")
    // Every reason present, the tour's own counts where it has them, 0 elsewhere.
    for reason in BlockedReason.allCases {
      #expect(s["verdicts_blocked_writes{reason=\"\(reason.wireName)\"}"] == Double(reasons[reason] ?? 0), "\(reason)")
    }
    #expect(Set(reasons.keys) == Set(BlockedReason.allCases))
    let refused = all.filter { if case .refused = $0.verdict { return true } else { return false } }.count
    #expect(s["verdicts_refused_writes"] == Double(refused))
    // Each pane's oldest: the age order's first write, to the millisecond.
    for pane in QueuePane.allCases {
      let first = try await demo.copy.queue.page(pane, offset: 0, limit: 1, order: .age).writes.first
      let expected = first.flatMap { Timestamp.date($0.answeredAt ?? $0.queuedAt) }?.timeIntervalSince1970
      let got = s["verdicts_oldest_write_timestamp_seconds{pane=\"\(pane.name)\"}"]
      #expect(expected != nil && abs((got ?? 0) - expected!) < 0.001, "\(pane): \(String(describing: got))")
    }
    let streak = all.filter { $0.verdict == nil }.map(\.environmentalStreak).max() ?? 0
    #expect(s["verdicts_largest_streak"] == Double(streak))
    // The drains as `history` tells them.
    #expect(s["verdicts_drains_total"] == Double(history.first?.number ?? -1))
    for ending in DrainRecord.Ending.allCases {
      let kept = history.filter { $0.ending == ending }.count
      #expect(s["verdicts_kept_drains{ending=\"\(ending.rawValue)\"}"] == Double(kept), "\(ending)")
      #expect(
        s["verdicts_last_drain_ending{ending=\"\(ending.rawValue)\"}"] == (history.first?.ending == ending ? 1 : 0))
    }
    #expect(Set(history.map(\.ending)).isSuperset(of: [.finished, .unavailable, .stopped]), "\(history.map(\.ending))")
    let lastEnd = history.first { $0.endedAt != nil }?.endedAt?.timeIntervalSince1970
    #expect(lastEnd != nil && abs((s["verdicts_last_drain_end_timestamp_seconds"] ?? 0) - lastEnd!) < 0.001)
    #expect(s["verdicts_fill{state=\"complete\"}"] == 1 && s["verdicts_fill{state=\"expired\"}"] == 0)
    // This process holds the writer role; the tour's last drain reached the instance.
    #expect(s["verdicts_writer_up"] == 1)
    #expect(s["verdicts_instance_reachable"] == 1)
    #expect(s["verdicts_instance_reachable_changed_timestamp_seconds"] != nil)
    let generated = s["verdicts_metrics_generated_timestamp_seconds"] ?? 0
    #expect(abs(generated - Date().timeIntervalSince1970) < 60)
    demo.stop()
    // The writer gone, the same store says so.
    let after = try await offThePool { try Binary.run(["metrics"], store: t.store, home: t.path) }
    #expect(after.code == 0, "\(after)")
    #expect(Self.samples(after.stdout)["verdicts_writer_up"] == 0)
  }

  @Test func promtoolCheckMetricsPassesOnADrainedStoreAndOnAStoreNeverDrained() async throws {
    let t = TempFolder()
    let demo = try await Self.touredStore(t)
    let drained = try await offThePool { try Binary.run(["metrics"], store: t.store, home: t.path) }
    demo.stop()
    #expect(drained.code == 0, "\(drained)")
    let checked = try Self.checkMetrics(drained.stdout)
    #expect(checked.shellStatus == 0, "\(checked.output)\n\(drained.stdout)")
    // A store with one write queued and no drain: the families with nothing to say are left out whole.
    let fresh = TempFolder()
    let queued = try Binary.run(
      ["items", "create", "--type", "note", "--properties", "{}"], store: fresh.store, home: fresh.path)
    #expect(queued.code == 0, "\(queued)")
    let r = try Binary.run(["metrics"], store: fresh.store, home: fresh.path)
    #expect(r.code == 0, "\(r)")
    let s = Self.samples(r.stdout)
    #expect(s["verdicts_writes{pane=\"waiting\"}"] == 1 && s["verdicts_drains_total"] == 0)
    #expect(s["verdicts_oldest_write_timestamp_seconds{pane=\"blocked\"}"] == nil)
    #expect(!r.stdout.contains("verdicts_last_drain_ending") && !r.stdout.contains("verdicts_instance_reachable"))
    let checkedFresh = try Self.checkMetrics(r.stdout)
    #expect(checkedFresh.shellStatus == 0, "\(checkedFresh.output)\n\(r.stdout)")
  }

  @Test func labelValuesAndHelpAreEscapedAsTheTextFormatAsks() {
    #expect(MetricsText.escapedLabel(#"a\b"c"# + "\nd") == #"a\\b\"c\nd"#)
    #expect(MetricsText.escapedHelp(#"a\b"# + "\n\"") == #"a\\b\n""#)
    var out = MetricsText.Exposition()
    out.family("verdicts_x", .gauge, "x", [([("l", "q\"\n\\")], .int(1))])
    #expect(out.text == "# HELP verdicts_x x\n# TYPE verdicts_x gauge\nverdicts_x{l=\"q\\\"\\n\\\\\"} 1\n")
  }
}

extension MetricsBinaryTests {
  /// The files in `dir`, by name.
  static func names(_ dir: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
  }

  @Test func theTextfileIsReplacedWholeAt0644AndAReaderNeverFindsAPartOfIt() async throws {
    let t = TempFolder()
    let demo = try await Self.touredStore(t)
    defer { demo.stop() }
    let dir = t.file("textfile")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
    let file = dir + "/verdicts.prom"
    try "old\n".write(toFile: file, atomically: false, encoding: .utf8)
    let printed = try await offThePool { try Binary.run(["metrics"], store: t.store, home: t.path) }
    // A reader reads the file over and over while it is replaced twenty times: each read is a
    // whole exposition (or the old text before the first).
    let stop = SharedValue(false)
    let torn = SharedValue<[String]>([])
    let reads = SharedValue(0)
    let readerDone = SharedValue(false)
    DetachedThread.start(name: "textfile reader") {
      while !stop.value {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
        reads.update { $0 += 1 }
        let whole =
          text == "old\n"
          || (text.hasPrefix("# HELP verdicts_writes ") && text.hasSuffix("\n")
            && text.split(separator: "\n").last?.hasPrefix("verdicts_metrics_generated_timestamp_seconds ") == true)
        if !whole { torn.update { $0.append(text) } }
      }
      readerDone.update { $0 = true }
    }
    let runs = try await offThePool {
      try (0..<20).map { _ in
        try Binary.run(["metrics", "--textfile", dir], store: t.store, home: t.path)
      }
    }
    stop.update { $0 = true }
    #expect(waitUntil(within: .seconds(10)) { readerDone.value })
    for r in runs {
      #expect(r.code == 0 && r.stdout.isEmpty && r.stderr.isEmpty, "\(r)")
    }
    #expect(torn.value.isEmpty, "a reader found a part: \(torn.value.first ?? "")")
    #expect(reads.value > 0)
    // Only the file: no hidden file left beside it; 0644; the text `metrics` prints.
    #expect(Self.names(dir) == ["verdicts.prom"])
    var info = stat()
    #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o644)
    let written = try String(contentsOfFile: file, encoding: .utf8)
    func dropGenerated(_ text: String) -> String {
      text.split(separator: "\n").filter {
        !$0.hasPrefix("verdicts_metrics_generated_timestamp_seconds ")
          && !$0.hasPrefix("verdicts_writer_updated_timestamp_seconds ")
      }.joined(separator: "\n")
    }
    #expect(dropGenerated(written) == dropGenerated(printed.stdout))
    #expect(try Self.checkMetrics(written).shellStatus == 0)
  }

  @Test func aTextfileFolderThatIsMissingOrNotAFolderIsRefusedExitTwoAndNothingIsWritten() async throws {
    let t = TempFolder()
    let made = try Binary.run(
      ["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    #expect(made.code == 0, "\(made)")
    let before = t.storeBytes()
    let notAFolder = t.file("plain")
    try "x".write(toFile: notAFolder, atomically: false, encoding: .utf8)
    for (dir, says) in [(t.file("missing"), "No such file or directory"), (notAFolder, "is not a folder")] {
      let r = try Binary.run(["metrics", "--textfile", dir], store: t.store, home: t.path)
      #expect(r.code == 2, "\(r)")
      #expect(r.stderr.contains(says) && r.stderr.contains("nothing was written"), "\(r)")
      #expect(r.stdout.isEmpty)
      let json = try Binary.run(["--json", "metrics", "--textfile", dir], store: t.store, home: t.path)
      #expect(json.errorCode == "usage", "\(json)")
    }
    #expect(!t.exists(t.file("missing")))
    #expect(try String(contentsOfFile: notAFolder, encoding: .utf8) == "x")
    #expect(Self.names(t.path).filter { $0.hasSuffix(".prom") || $0.hasPrefix(".verdicts") }.isEmpty)
    #expect(t.storeBytes() == before)
  }

  @Test(.enabled(if: Tmpfs.canMount, "needs a tmpfs of the test's own"))
  func aTextfileThatCannotBeWrittenKeepsTheOldFileAndLeavesNoPart() throws {
    let t = TempFolder()
    let made = try Binary.run(
      ["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    #expect(made.code == 0, "\(made)")
    let dir = t.file("small")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
    #expect(Tmpfs.mount(dir, kilobytes: 64))
    defer { Tmpfs.tool(Tmpfs.umountTool, [dir]) }
    let file = dir + "/verdicts.prom"
    try "old\n".write(toFile: file, atomically: false, encoding: .utf8)
    // The disk full: the write fails part way, exit 3, the old text stays, no hidden file.
    _ = try ChildProcess.run("/bin/sh", ["-c", "cat /dev/zero > \"$0\" 2>/dev/null; true", dir + "/filler"])
    let full = try Binary.run(["metrics", "--textfile", dir], store: t.store, home: t.path)
    #expect(full.code == 3, "\(full)")
    #expect(full.stderr.contains("write error") && full.stderr.contains("it is as it was"), "\(full)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "old\n")
    #expect(Self.names(dir) == ["filler", "verdicts.prom"])
    // Read-only: refused before the store is opened, exit 2.
    try FileManager.default.removeItem(atPath: dir + "/filler")
    #expect(Tmpfs.tool(Tmpfs.mountTool, ["-o", "remount,ro", dir]))
    let readOnly = try Binary.run(["metrics", "--textfile", dir], store: t.store, home: t.path)
    #expect(readOnly.code == 2, "\(readOnly)")
    #expect(readOnly.stderr.contains("cannot be written in"), "\(readOnly)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "old\n")
  }

  @Test func aMissingStoreIsRefusedNoStoreAsStatusRefusesItAndNothingIsMade() throws {
    let t = TempFolder()
    let dir = t.file("textfile")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
    let status = try Binary.run(["--json", "status"], store: t.store, home: t.path)
    for line in [["--json", "metrics"], ["--json", "metrics", "--textfile", dir]] {
      let r = try Binary.run(line, store: t.store, home: t.path)
      #expect(r.code == status.code && r.code == 2, "\(r)")
      #expect(r.errorCode == "no_store" && status.errorCode == "no_store", "\(r)")
      #expect(r.stdout.isEmpty)
    }
    #expect(!t.exists(t.store) && !t.exists(t.store + ".lock"))
    #expect(Self.names(dir).isEmpty)
  }

  @Test func theAlertRulesInDocsMonitoringPassPromtoolCheckRulesAndNameOnlySeriesMetricsPrints() async throws {
    let doc = try String(
      contentsOf: Binary.packageRoot.appendingPathComponent("docs/monitoring.md"), encoding: .utf8)
    let blocks = doc.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
    #expect(blocks.count == 1)
    let rules = try #require(blocks.first)
    for alert in [
      "VerdictsWriteBlockedOverAnHour", "VerdictsDeadWrite", "VerdictsInstanceUnreachable", "VerdictsWriterGone",
      "VerdictsMetricsStale",
    ] {
      #expect(rules.contains("alert: \(alert)\n"), "\(alert)")
    }
    // Every series a rule names is one `metrics` prints, and every family it prints is in the doc's table.
    let t = TempFolder()
    let demo = try await Self.touredStore(t)
    let printed = try await offThePool { try Binary.run(["metrics"], store: t.store, home: t.path) }
    demo.stop()
    let families = Set(
      printed.stdout.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map {
        String($0.split(separator: " ")[2])
      })
    #expect(families.count >= 15, "\(printed)")
    let named = Set(rules.matches(of: /verdicts_[a-z_]+/).map { String($0.output) })
    #expect(!named.isEmpty && named.isSubset(of: families), "\(named.subtracting(families))")
    for family in families {
      #expect(doc.contains("| `\(family)` |"), "\(family) is not in docs/monitoring.md's table")
    }
    let file = t.file("rules.yml")
    try (rules + "\n").write(toFile: file, atomically: false, encoding: .utf8)
    let checked = try ChildProcess.run(try Self.promtool(), ["check", "rules", file], errorsToOutput: true)
    #expect(checked.shellStatus == 0, "\(checked.output)")
    #expect(checked.output.contains("SUCCESS: 6 rules found"), "\(checked.output)")
  }
}
