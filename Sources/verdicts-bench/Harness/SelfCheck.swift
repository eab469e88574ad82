import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The harness's own checks, run before every bench run (and alone as `verdicts-bench
/// selfcheck`): the pieces that can be checked without timing. A failed check stops the bench.
enum SelfCheck {
  /// The failures; empty when every check held.
  static func run() -> (checks: Int, failures: [String]) {
    var checks = 0
    var failures: [String] = []
    func check(_ ok: Bool, _ what: String) {
      checks += 1
      if !ok { failures.append(what) }
    }
    let esc = "\u{1B}"

    // A frame as ncurses sends it: alternate screen, cursor moves, line drawing, REP, colours.
    var screen = ScreenModel(width: 40, height: 6)
    screen.feed(Array("\(esc)[?1049h\(esc)[22;0;0t\(esc)[H\(esc)[2J".utf8))
    screen.feed(Array("\(esc)[1;1H┌─ \(esc)[1mWaiting 1,204\(esc)[m ─\(esc)[3b┐".utf8))
    screen.feed(Array("\(esc)[1;25H\(esc)(0lq\(esc)(B Answered 7 ".utf8))
    screen.feed(Array("\(esc)[4;1H─ Blocked … \(esc)[4;20H- Dead 0".utf8))
    check(screen.line(0).hasPrefix("┌─ Waiting 1,204 ────┐"), "REP repeats the last character: \(screen.line(0))")
    check(screen.line(0).contains("┌─ Answered 7"), "the line-drawing set maps l and q: \(screen.line(0))")
    let shown = PaneTitles(screen: screen)
    check(shown.counts == [1204, 7, nil, 0], "titles read with commas, a placeholder is no number: \(shown)")
    let truth = PaneTitles(counts: [1204, 7, 3, 0])
    check(!shown.shows(truth), "a frame with a placeholder is not complete")
    check(!shown.showsWrongNumber(truth), "a placeholder is not a wrong number")
    check(PaneTitles(counts: [1204, 0, 3, 0]).showsWrongNumber(truth), "a 0 where the store has 7 is a wrong number")
    screen.feed(Array("\(esc)[4;11H3".utf8))
    check(PaneTitles(screen: screen).shows(truth), "a frame showing every true count is complete")
    check(
      PaneTitles.count(after: "Waiting", in: "status: Waiting 5 writes") == nil, "a count outside a title is not read")

    // Erasing, scrolling a region, inserting and deleting lines, a wide character, CR LF.
    var s = ScreenModel(width: 10, height: 4)
    s.feed(Array("a\r\nb\r\nc\r\nd".utf8))
    check(s.text == "a         \nb         \nc         \nd         ", "CR LF moves to the next row")
    s.feed(Array("\(esc)[2;3r\(esc)[2;1H\(esc)M".utf8))
    check(
      s.line(1) == "          " && s.line(2) == "b         " && s.line(3) == "d         ", "RI scrolls the region down")
    s.feed(Array("\(esc)[1;1H\(esc)[K版x\(esc)[1;1H\(esc)[2P".utf8))
    check(s.line(0).hasPrefix("x "), "DCH deletes the cells of a wide character: \(s.line(0))")
    s.feed(Array("\(esc)[r\(esc)[4;1H\n".utf8))
    check(s.line(3) == "          " && s.line(2) == "d         ", "LF at the last row scrolls the screen")

    // The SSH link: 2 MiB in front of 2.5 KB/s.
    var link = SSHLink(capacity: 2 * 1_048_576, rate: 2560)
    check(link.accept(25_600, at: 0) == 10, "25,600 B at 2,560 B/s arrive 10 s later")
    check(link.backlog(at: 5) == 12_800, "half of it is still in the buffer at 5 s")
    check(link.accept(2_560, at: 20) == 21, "a link idle since 10 s sends new bytes at once")
    check(link.room(at: 21) == 2 * 1_048_576, "an empty buffer has all its room")
    _ = link.accept(2 * 1_048_576, at: 21)
    check(link.room(at: 21) == 0 && abs(link.wait(for: 2560, at: 21) - 1) < 1e-9, "a full buffer takes 1 s per 2,560 B")
    check(abs(link.backlog(at: 21 + 819.2) - 0) < 1e-6, "2 MiB drain in 819.2 s at 2.5 KB/s")

    // The watcher's spread: the mean of 1, 2, 3, 4 is 2.5, their standard error 0.645.
    check(
      Stats.mean([1, 2, 3, 4]) == 2.5 && abs(Stats.standardError([1, 2, 3, 4]) - 0.6455) < 0.001
        && Stats.standardError([7]) == 0,
      "mean and standard error of the mean")

    // /proc readers.
    check(
      ProcStats.switches(status: "Name:\tx\nvoluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3\n") == 15,
      "context switches are voluntary + nonvoluntary")
    check(
      ProcStats.cpuTicks(stat: "42 (a (b) c) S 1 42 42 0 -1 4194304 10 0 0 0 7 5 0 0 20 0 1 0") == 12,
      "CPU ticks are utime + stime after the command name")
    // A sleep is a voluntary switch: there is at least one to read (a fresh check once read none).
    usleep(1_000)
    check(ProcStats.switches(pid: getpid()) > 0, "this process's own context switches are read")
    let between = ProcStats.switchesBetween(["1": 10, "2": 50, "3": 7], ["1": 12, "2": 51, "4": 5])
    check(
      between == (8, 1), "switches between readings: kept threads' growth, new threads' all, an ended one counted apart"
    )
    check(ProcStats.cpuSeconds(pid: getpid()) >= 0, "this process's own CPU time is read")
    let stat = "cpu  2952769 129306 631048 5410933 39561 0 23156 6512 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n"
    check(
      ProcStats.stealTicks(stat: stat) == 6512 && ProcStats.stealTicks(stat: "cpu0 1 2 3 4 5 6 7 8\n") == nil,
      "steal is the eighth number of /proc/stat's cpu line, and only that line's")
    check(ProcStats.stealSeconds() >= 0, "the machine's steal time is read")
    check(ProcStats.runDelaySeconds(pid: getpid()) != nil, "this process's threads' wait for a CPU is read")

    let status = Array("Name:\tverdicts\nVmPeak:\t  200 kB\nVmHWM:\t   18432 kB\nVmRSS:\t 9000 kB\n".utf8)
    check(SpawnedProcess.highWaterKB(status: status[...]) == 18432, "VmHWM is read from a status file's bytes")
    check(SpawnedProcess.highWaterKB(status: Array("Name:\tx\n".utf8)[...]) == nil, "a status with no VmHWM reads none")
    check((SpawnedProcess.highWaterKB("self") ?? 0) > 0, "this process's own VmHWM is read")

    // wait4: exit codes and the peak RSS.
    if let p = try? SpawnedProcess.run("/bin/sh", ["-c", "exit 3"], environment: [:]) {
      check(p.wait() == 3, "a child's exit code comes back from wait4")
    } else {
      check(false, "/bin/sh starts")
    }
    if let p = try? SpawnedProcess.run("/bin/sh", ["-c", "sleep 0.2"], environment: [:]) {
      check(p.peakMB > 0 && p.peakMB < 10, "a small child's peak RSS is its own, not the bench's: \(p.peakMB) MB")
    }
    if let p = try? SpawnedProcess.run("/bin/sh", ["-c", "kill -TERM $$"], environment: [:]) {
      check(p.wait() == 128 + SIGTERM, "a child ended by a signal reads 128 + the signal")
    }

    // Frames in a stream of reads.
    let t = ContinuousClock.now
    let chunk = { (ms: Int) in PseudoTerminal.Chunk(time: t + .milliseconds(ms), bytes: [0x20], delivered: t) }
    check(
      WatcherBenchmark.frames(
        [chunk(0), chunk(1), chunk(3), chunk(50), chunk(52), chunk(200)], from: t, to: t + .seconds(1))
        == 3, "reads less than 5 ms apart are one frame")

    // A callgrind output's instruction count: its totals line, else its summary line.
    check(
      DrainInstructions.total(callgrindOutput: "events: Ir\nsummary: 12\nfn=(1) f\n0 3\ntotals: 767422516\n")
        == 767_422_516, "a callgrind file's totals line is its count")
    check(DrainInstructions.total(callgrindOutput: "events: Ir\nsummary: 84349861\n") == 84_349_861, "else its summary")
    check(
      DrainInstructions.total(callgrindOutput: "events: Ir\ntotals: many\n") == nil, "a total that is no number is none"
    )
    let log = FileManager.default.temporaryDirectory.path + "/verdicts-bench-selfcheck-\(getpid()).log"
    try? "==1== Command: x\n\nvalgrind: the 'impossible' happened:\n   Killed by fatal signal\n\nhost stacktrace:\n"
      .write(toFile: log, atomically: true, encoding: .utf8)
    check(
      DrainInstructions.why(log: log) == "valgrind: the 'impossible' happened: Killed by fatal signal",
      "a failed callgrind run's row says valgrind's own words: \(DrainInstructions.why(log: log))")
    try? FileManager.default.removeItem(atPath: log)

    // The delaying proxy's request reader: heads split anywhere, bodies by length and in chunks.
    var reader = RequestReader()
    let wire = Array(
      ("GET / HTTP/1.1\r\nHost: x\r\n\r\nPOST /items?a=1 HTTP/1.1\r\nContent-Length: 5\r\n\r\nGET /"
        + "POST /edges HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\nDELETE /items/7 HTTP/1.1\r\n\r\n")
        .utf8)
    var found: [String] = []
    for start in stride(from: 0, to: wire.count, by: 7) {
      let part = reader.feed(wire[start..<min(start + 7, wire.count)])
      found += part.requests
      check(part.unparsed == 0, "the request reader reads every head")
    }
    check(
      found == ["GET /", "POST /items", "POST /edges", "DELETE /items/7"],
      "requests are read whole, bodies skipped by length and in chunks: \(found)")
    return (checks, failures)
  }
}
