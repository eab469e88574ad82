import Foundation

/// The long forms of the reliability suite run with `SOAK=1`.
public enum Soak {
  /// Whether `SOAK` is set (and not `0`).
  public static var on: Bool { ProcessInfo.processInfo.environment["SOAK"].map { !$0.isEmpty && $0 != "0" } ?? false }
}
