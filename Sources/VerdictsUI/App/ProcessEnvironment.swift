/// The environment variables the program sets for itself or reads for its tests.
public enum ProcessEnvironment {
  /// Where the Swift backtracer writes a crash report, as the program set it in `SWIFT_BACKTRACE`
  /// when it started itself again (`ProcessStart`); the screen says it once the terminal is back.
  public static let crashReport = "VERDICTS_CRASH_REPORT"
  /// `1`: the screen traps right after its first frame; `thread`: another thread traps while the
  /// screen draws (tests of the fatal-signal handler only).
  public static let testTrap = "VERDICTS_TEST_TRAP"
}
