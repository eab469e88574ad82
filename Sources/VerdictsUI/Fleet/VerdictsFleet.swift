import FoundationEssentials
import MarfaQueue
import MarfaWire

/// `verdicts fleet`: many devices' stores at a glance (docs/fleet.md), on a screen or as lines.
package enum VerdictsFleet {
  /// Seconds `--plain` waits for every device's first answer before its first listing (a
  /// device still not reached is listed as connecting).
  package static let settleSeconds = 15.0

  /// The fleet screen on this terminal until `q` or a quit signal; `enter` opens a device's full
  /// screen over the same source, and `q` there comes back to the fleet.
  ///
  /// - Throws: ``AppError`` when there is no terminal to run on.
  package static func run(
    hosts: [String], connect: @escaping FleetMonitor.Connect, describe: @escaping FleetMonitor.Describe,
    options: AppOptions
  ) async throws {
    let inbox = Mutex<[Int: FleetRow]>([:])
    let pipe = SignalPipe()
    let monitor = FleetMonitor(hosts: hosts, connect: connect, describe: describe) { i, row in
      inbox.withLock { $0[i] = row }
      pipe.wake()
    }
    defer { monitor.stop() }
    monitor.start()
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, Error>) in
      DetachedThread.start(name: "verdicts-fleet-ui", stackSize: 8 << 20) {
        do {
          try FleetLoop(monitor: monitor, state: FleetState(hosts: hosts), inbox: inbox, pipe: pipe, options: options)
            .run()
          done.resume()
        } catch {
          done.resume(throwing: error)
        }
      }
    }
  }

  /// `fleet --plain`: once every device answered or failed (or after ``settleSeconds``), a line
  /// a device, trouble first; then a line for a device each time its line changes, until the
  /// task is cancelled. `once`: only the first listing.
  package static func plain(
    hosts: [String], connect: @escaping FleetMonitor.Connect, describe: @escaping FleetMonitor.Describe,
    emit: @escaping @Sendable (String) -> Void, once: Bool, ascii: Bool = false
  ) async {
    let (events, sink) = AsyncStream<FleetEvent>.makeStream()
    let monitor = FleetMonitor(hosts: hosts, connect: connect, describe: describe) { i, row in
      sink.yield(.row(i, row))
    }
    defer { monitor.stop() }
    let ticker = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: .seconds(FleetLoop.tickSeconds))
        sink.yield(.tick(Date()))
      }
    }
    defer { ticker.cancel() }
    let started = Date()
    monitor.start()
    var state = FleetState(hosts: hosts)
    var printed: [String?] = Array(repeating: nil, count: hosts.count)
    var listed = false
    func line(_ i: Int) -> String {
      let text = state.rows[i].plainLine(now: state.now)
      return ascii ? Sanitizer.clean(text, ascii: true) : text
    }
    for await event in events {
      _ = state.handle(event)
      if case .row = event { _ = state.handle(.tick(Date())) }
      if !listed {
        let settled = state.rows.allSatisfy { $0.link != .connecting }
        guard settled || Date().timeIntervalSince(started) >= settleSeconds else { continue }
        listed = true
        for i in state.visible {
          printed[i] = line(i)
          emit(printed[i]!)
        }
        if once { return }
        continue
      }
      let changed: [Int]
      if case .row(let i, _) = event { changed = [i] } else { changed = Array(state.rows.indices) }
      for i in changed {
        let text = line(i)
        if text != printed[i] {
          printed[i] = text
          emit(text)
        }
      }
    }
  }
}
