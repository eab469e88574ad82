import Dispatch
import Glibc
import MarfaQueue

/// SIGINT and SIGTERM while `verdicts drain` runs: the first asks the drain to stop
/// (``Queue/stopDrain()``), the second ends the process at once (exit 130, as a shell reads
/// Ctrl-C). Unchecked: its sources are only made, resumed and cancelled, which Dispatch allows
/// from any thread.
final class DrainSignals: @unchecked Sendable {
  private let sources: [any DispatchSourceSignal]

  private init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }

  /// Handles SIGINT and SIGTERM for `queue`'s drain until ``cancel()``. A handler, not the
  /// inherited disposition: a shell that started verdicts in the background ignores SIGINT.
  static func watch(_ queue: Queue) -> DrainSignals {
    let asked = OnceFlag()
    let sources = [SIGINT, SIGTERM].map { sig -> any DispatchSourceSignal in
      signal(sig, SIG_IGN)
      return DispatchSource.makeSignalSource(signal: sig, queue: .global())
    }
    for source in sources {
      source.setEventHandler {
        if asked.take() {
          queue.stopDrain()
        } else {
          _exit(130)
        }
      }
      source.resume()
    }
    return DrainSignals(sources)
  }

  /// Stops handling; the signals keep being ignored until the process ends, which is soon.
  func cancel() {
    for source in sources { source.cancel() }
  }
}
