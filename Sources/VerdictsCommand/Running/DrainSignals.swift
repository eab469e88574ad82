import Dispatch
import Glibc
import MarfaQueue

/// SIGINT, SIGTERM and SIGHUP while `verdicts drain` runs: the first asks the drain to stop
/// (``Queue/stopDrain(because:)``, the signal named in its history row), the second ends the
/// process at once (exit 130, as a shell reads Ctrl-C). A hang-up (the terminal or the SSH
/// session closed) stops the drain as Ctrl-C does, so its row says how it ended. Unchecked: its sources are only made, resumed and cancelled, which Dispatch allows
/// from any thread.
final class DrainSignals: @unchecked Sendable {
  private let sources: [any DispatchSourceSignal]

  private init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }

  /// The words a drain's history row keeps for each signal handled.
  static let names: [(signal: Int32, name: String)] = [
    (SIGINT, "SIGINT (Ctrl-C)"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP (the terminal or the session closed)"),
  ]

  /// Handles SIGINT, SIGTERM and SIGHUP for `queue`'s drain until ``cancel()``. A handler, not
  /// the inherited disposition: a shell that started verdicts in the background ignores SIGINT.
  static func watch(_ queue: Queue) -> DrainSignals {
    let asked = OnceFlag()
    let sources = names.map { sig, name -> (any DispatchSourceSignal, String) in
      signal(sig, SIG_IGN)
      return (DispatchSource.makeSignalSource(signal: sig, queue: .global()), name)
    }
    for (source, name) in sources {
      source.setEventHandler {
        if asked.take() {
          queue.stopDrain(because: "stopped by \(name)")
        } else {
          _exit(130)
        }
      }
      source.resume()
    }
    return DrainSignals(sources.map(\.0))
  }

  /// Stops handling; the signals keep being ignored until the process ends, which is soon.
  func cancel() {
    for source in sources { source.cancel() }
  }
}
