import FoundationEssentials
import MarfaQueue

extension VerdictsApp {
  /// `watch --plain`'s writer lines on the Marfa core's store, which publishes no writer record:
  /// the app holding the core's writer lock, named by its command and pid, when the watch starts
  /// and whenever it comes or goes (asked of the kernel every `interval`, taking nothing):
  /// `writer: python3 (pid 4211) holds the core's writer lock`,
  /// `writer: none since 09:41:02 (pid 4211 let the core's writer lock go)`,
  /// `writer: none (no app holds the core's writer lock)`. With `json`,
  /// `{"time", "event": "writer", "writer": {"state": "live"|"none", "program", "pid", "lock"}}`.
  static func followCoreWriter(
    _ core: CoreStore, emit: @escaping @Sendable (String) -> Void, clock: @escaping @Sendable () -> String,
    ascii: Bool, json: Bool, interval: Duration = .seconds(1)
  ) async {
    var last: CoreWriterProbe.Writer?
    var first = true
    while !Task.isCancelled {
      let now = CoreWriterProbe.writer(of: core.path)
      if first || now?.pid != last?.pid {
        let line: String
        if let now {
          let name = now.program.map { Sanitizer.clean($0, ascii: ascii) + " " } ?? "an app "
          line = "writer: \(name)(pid \(now.pid)) holds the core's writer lock"
        } else if let last {
          line = "writer: none since \(WriterText.clock(Date())) (pid \(last.pid) let the core's writer lock go)"
        } else {
          line = "writer: none (no app holds the core's writer lock)"
        }
        emit(json ? coreWriterJSON(now, time: clock(), ascii: ascii) : clock() + " " + line)
        last = now
        first = false
      }
      do { try await Task.sleep(for: interval) } catch { return }
    }
  }

  /// The core's writer as a `watch --plain --json` line.
  static func coreWriterJSON(_ w: CoreWriterProbe.Writer?, time: String, ascii: Bool) -> String {
    let writer: JSONValue = .object([
      ("state", .string(w == nil ? "none" : "live")),
      ("program", w?.program.map(JSONValue.string) ?? .null),
      ("pid", w.map { .int(Int($0.pid)) } ?? .null),
      ("lock", w.map { .string($0.lockPath) } ?? .null),
    ])
    return JSONValue.object([("time", .string(time)), ("event", .string("writer")), ("writer", writer)])
      .text(escaping: ascii ? .ascii : .visible)
  }
}
