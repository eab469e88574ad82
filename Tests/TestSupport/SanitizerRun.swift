import Foundation

/// Whether the suite runs under a sanitizer: `make asan` and `make tsan` set `VERDICTS_SANITIZER`.
///
/// A test whose assertion is a wall-clock bound (an answer within its request's 3 s deadline, a
/// drop met "at once") is off there, with the reason written beside it (``reason``'s words): AddressSanitizer slows the code about 2×,
/// ThreadSanitizer 5–20×, so the bound says nothing about the code. Its behaviour is still run by
/// the plain suite in `make test`.
public enum SanitizerRun {
  /// Whether `VERDICTS_SANITIZER` is set (and not empty).
  public static var active: Bool { !(ProcessInfo.processInfo.environment["VERDICTS_SANITIZER"] ?? "").isEmpty }
  /// Whether the suite runs under ThreadSanitizer (`make tsan`).
  public static var thread: Bool { ProcessInfo.processInfo.environment["VERDICTS_SANITIZER"] == "tsan" }
  /// Why a wall-clock test is off under a sanitizer.
  public static let reason = "a wall-clock bound: under a sanitizer the code runs 2–20× slower"
}
