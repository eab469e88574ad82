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
    let arguments = rawArguments.map { String(decoding: $0, as: UTF8.self) }
    let parsed: ParsedArguments
    switch CommandTable.parser.parse(arguments) {
    case .help(_, let p), .version(let p), .failure(_, let p), .run(_, let p): parsed = p
    }
    let failure = CommandFailure(
      code: "no_proc",
      message:
        "/proc is not mounted, and verdicts needs it: libdispatch, which runs its tasks, reads /proc/<tid>/stat "
        + "and stops the program without it (and who holds a store's writer role is read from /proc/locks); "
        + "mount it (mount -t proc proc /proc) and run the command again",
      exit: .environment)
    return report(failure, globals: GlobalOptions(parsed, environment: environment), output: output)
  }
}
