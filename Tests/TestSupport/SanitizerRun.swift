import Foundation

/// Whether the suite runs under a sanitizer: read from the build itself (`make asan` and `make tsan`
/// also set `VERDICTS_SANITIZER`, which a child process the tests start reads).
///
/// A test whose assertion is a wall-clock bound (an answer within its request's 3 s deadline, a
/// drop met "at once") is off there, with the reason written beside it (``reason``'s words): AddressSanitizer slows the code about 2×,
/// ThreadSanitizer 5–20×, so the bound says nothing about the code. Its behaviour is still run by
/// the plain suite in `make test`.
public enum SanitizerRun {
  /// Whether this process is built with a sanitizer (its runtime's entry is linked in), or
  /// `VERDICTS_SANITIZER` is set (and not empty).
  public static var active: Bool { kind != nil }
  /// Whether the suite runs under ThreadSanitizer (`make tsan`).
  public static var thread: Bool { kind == "tsan" }

  /// `asan` or `tsan`: the sanitizer whose runtime this process carries (the build's own word,
  /// whatever the environment says), else `VERDICTS_SANITIZER`'s value, else nil.
  public static let kind: String? = {
    // RTLD_DEFAULT: every object loaded in the process.
    if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil { return "tsan" }
    if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil { return "asan" }
    let named = ProcessInfo.processInfo.environment["VERDICTS_SANITIZER"] ?? ""
    return named.isEmpty ? nil : named
  }()
  /// How much longer a bounded wait (``eventually(within:every:_:)``, ``waitUntil(within:every:_:)``)
  /// allows under a sanitizer: 6× under ThreadSanitizer, 3× under AddressSanitizer, 1 otherwise.
  ///
  /// Such a bound is not a claim about speed: it is how long a test waits for something another
  /// task or process will do. Swift Testing starts every test of a target at once on the two
  /// threads of the cooperative pool; under ThreadSanitizer the suite's first 70 s are all of them
  /// taking turns, and a follower that looks every 20 ms had not looked five times in the 10 s allowed
  /// (`SaveFollowerTests`, `CoreStoreTests`, `SharedCommitTests`, docs/reliability.md).
  public static var boundScale: Int64 {
    switch kind {
    case "tsan": 6
    case "asan": 3
    default: 1
    }
  }
  /// Why a wall-clock test is off under a sanitizer.
  public static let reason = "a wall-clock bound: under a sanitizer the code runs 2–20× slower"
}
