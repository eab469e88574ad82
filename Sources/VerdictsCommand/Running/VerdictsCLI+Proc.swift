import FoundationEssentials

extension VerdictsCLI {
  /// Refuses to run where `/proc` is not mounted, saying why (exit 3, `no_proc`); nil where it is.
  ///
  /// Called before any task starts: libdispatch, which runs the program's tasks, reads
  /// `/proc/<tid>/stat` each second while work is queued, to size its thread pool, and stops
  /// the process (SIGILL, "workq: registered worker exited prematurely") when it cannot, at any
  /// moment: mid-drain as well as at start. This program also names who holds a store's writer
  /// role from `/proc/locks`. So it says so and ends, rather than stop at random.
  public static func refuseWithoutProc(
    rawArguments: [[UInt8]], environment: [String: String], output: any CommandOutput, procMounted: Bool
  ) -> Int32? {
    guard !procMounted else { return nil }
    let failure = CommandFailure(
      code: "no_proc",
      message:
        "/proc is not mounted, and verdicts needs it: libdispatch, which runs its tasks, reads /proc/<tid>/stat "
        + "and stops the program without it (and who holds a store's writer role is read from /proc/locks); "
        + "mount it (mount -t proc proc /proc) and run the command again",
      exit: .environment)
    return refuseBeforeTasks(failure, rawArguments: rawArguments, environment: environment, output: output)
  }

  /// Refuses to run under an address-space limit too low for the program's threads, saying so
  /// (exit 3, `out_of_memory`); nil when there is room (`limit` is nil).
  ///
  /// Called before any task starts: under such a limit libdispatch cannot start the threads that
  /// run the tasks, and sleeps and tries again for as long as it cannot (a drain stalled past 30 s
  /// under `ulimit -v 100000`). Nothing has been opened or sent.
  public static func refuseWithoutAddressRoom(
    rawArguments: [[UInt8]], environment: [String: String], output: any CommandOutput, limit: Int?
  ) -> Int32? {
    guard let limit else { return nil }
    let failure = CommandFailure(
      code: "out_of_memory",
      message:
        "out of memory: the address-space limit (ulimit -v) is \(limit >> 20) MiB, which leaves less than the "
        + "\(ProcessStart.addressRoomNeeded >> 20) MiB verdicts needs beyond its start for its threads; nothing was done: "
        + "raise the limit and run the command again",
      exit: .environment)
    return refuseBeforeTasks(failure, rawArguments: rawArguments, environment: environment, output: output)
  }

  /// Says `failure` as the command line asked (`--json` or text) before any task starts.
  private static func refuseBeforeTasks(
    _ failure: CommandFailure, rawArguments: [[UInt8]], environment: [String: String], output: any CommandOutput
  ) -> Int32 {
    let arguments = rawArguments.map { String(decoding: $0, as: UTF8.self) }
    let parsed: ParsedArguments
    switch CommandTable.parser.parse(arguments) {
    case .help(_, let p), .version(let p), .failure(_, let p), .run(_, let p): parsed = p
    }
    return report(failure, globals: GlobalOptions(parsed, environment: environment), output: output)
  }
}
