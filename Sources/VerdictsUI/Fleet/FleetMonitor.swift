import FoundationEssentials
import MarfaQueue
import MarfaWire

/// Keeps one ``FleetRow`` a device up to date (docs/fleet.md, "How rows are read"): one source
/// (one ssh connection) a device, each made on its own thread so that no slow host holds the
/// others back, and made again with backoff while it fails.
///
/// A device is read whole (status, blocked counts) at first, when its change stream or its
/// link says something (at most once a second), and every ``fullEvery`` seconds; in between a
/// small call every ``probeEvery`` seconds proves it answers. A silent link is seen by ssh's own
/// keepalive (an ask after 2 s of silence, given up after 2 unanswered: within 4–6 s), which the link's notice turns into
/// a read that fails at once; a call unanswered for ``answerWithin`` seconds marks the device
/// unreachable too. Idle, a device costs ssh's keepalives and one small call each ``probeEvery``.
package final class FleetMonitor: Sendable {
  /// Makes the source for a host; blocks (runs on its own thread). Throws ``FleetConnectFailure``.
  package typealias Connect = @Sendable (String) throws -> any QueueSource
  /// Says an error of a source in one line (made safe for a terminal).
  package typealias Describe = @Sendable (any Error) -> String

  /// Seconds between the small calls that prove a device answers.
  package static let probeEvery = 30.0
  /// Seconds a call may go unanswered before the device counts as unreachable.
  package static let answerWithin = 3.0
  /// Seconds between whole reads of a device nothing was heard from.
  package static let fullEvery = 30.0

  private let watches: [DeviceWatch]

  /// A monitor of `hosts`; `publish` is called with a device's index and row each time the row
  /// changes (from any thread). Nothing starts before ``start()``.
  package init(
    hosts: [String], connect: @escaping Connect, describe: @escaping Describe,
    publish: @escaping @Sendable (Int, FleetRow) -> Void
  ) {
    watches = hosts.enumerated().map { i, host in
      DeviceWatch(index: i, host: host, connect: connect, describe: describe, publish: publish)
    }
  }

  /// Starts every device's connection at once.
  package func start() {
    for w in watches { w.start() }
  }

  /// Device `index`'s source, nil while it is not connected.
  package func source(_ index: Int) -> (any QueueSource)? {
    guard watches.indices.contains(index) else { return nil }
    return watches[index].source
  }

  /// Stops every watch and closes every source (ending each ssh).
  package func stop() {
    for w in watches { w.stop() }
  }
}

/// Why a device could not be connected to, in one line.
package struct FleetConnectFailure: Error, Sendable {
  /// The line.
  package var message: String
  /// A failure saying `message`.
  package init(message: String) { self.message = message }
}

/// One device's watch: its connection, its reads, its row.
private final class DeviceWatch: Sendable {
  private struct State {
    var row: FleetRow
    var source: (any QueueSource)?
    var stopped = false
    var task: Task<Void, Never>?
    var listeners: [Task<Void, Never>] = []
    // The wake-up: set by a change or a notice, waited on between reads.
    var kicked = false
    var waiter: CheckedContinuation<Bool, Never>?
    var sleeper: Task<Void, Never>?
  }

  let index: Int
  let host: String
  private let connect: FleetMonitor.Connect
  private let describe: FleetMonitor.Describe
  private let publish: @Sendable (Int, FleetRow) -> Void
  private let state: Mutex<State>

  init(
    index: Int, host: String, connect: @escaping FleetMonitor.Connect, describe: @escaping FleetMonitor.Describe,
    publish: @escaping @Sendable (Int, FleetRow) -> Void
  ) {
    self.index = index
    self.host = host
    self.connect = connect
    self.describe = describe
    self.publish = publish
    state = Mutex(State(row: FleetRow(host: host)))
  }

  var source: (any QueueSource)? { state.withLock { $0.source } }

  func start() {
    let task = Task.detached { [self] in await run() }
    state.withLock { $0.task = task }
  }

  func stop() {
    let (source, tasks) = state.withLock { s -> ((any QueueSource)?, [Task<Void, Never>]) in
      s.stopped = true
      return (s.source, s.listeners + [s.task].compactMap { $0 })
    }
    kick()
    for t in tasks { t.cancel() }
    source?.close()
  }

  private var stopped: Bool { state.withLock { $0.stopped } }

  private func update(_ change: (inout FleetRow) -> Void) {
    let changed = state.withLock { s -> FleetRow? in
      var row = s.row
      change(&row)
      guard row != s.row else { return nil }
      s.row = row
      return row
    }
    if let changed { publish(index, changed) }
  }

  /// Marks the device unreachable since `since`, or since it first was when it already is.
  private func markDown(_ why: String, since: Date = Date()) {
    update { row in
      if case .down(let was, _) = row.link {
        row.link = .down(since: was, why: why)
      } else {
        row.link = .down(since: since, why: why)
      }
    }
  }

  // MARK: - The watch

  private func run() async {
    guard let source = await connectWithBackoff() else { return }
    listen(source)
    var pending: Task<(Status, [BlockedReason: Int])?, any Error>?
    var sentAt = Date()
    var lastFull: Date?
    var kicked = true
    while !stopped {
      let now = Date()
      let full = kicked || lastFull.map { now.timeIntervalSince($0) >= FleetMonitor.fullEvery } ?? true
      if pending == nil {
        sentAt = now
        pending = Task {
          if full || self.state.withLock({ $0.row.link != .up }) { return try await Self.read(source) }
          _ = try await source.lastDrainEndedAt()
          return nil
        }
      }
      switch await Self.outcome(of: pending!, within: FleetMonitor.answerWithin) {
      case .value(let read):
        pending = nil
        if let (status, blocked) = read {
          lastFull = Date()
          update { row in
            row.link = .up
            row.status = status
            row.blocked = blocked
          }
        } else {
          let wasDown = state.withLock { $0.row.link != .up }
          update { $0.link = .up }
          if wasDown {
            kicked = true
            continue
          }
        }
      case .failure(let error):
        pending = nil
        markDown(describe(error))
      case .late:
        markDown("no answer for \(Int(FleetMonitor.answerWithin)) s", since: sentAt)
      }
      if stopped { return }
      // Reads a device's changes ask for are at most one a second.
      if kicked { try? await Task.sleep(for: .seconds(1)) }
      kicked = await waitForKick(upTo: FleetMonitor.probeEvery)
    }
  }

  private static func read(_ source: any QueueSource) async throws -> (Status, [BlockedReason: Int]) {
    let status = try await source.status()
    let blocked = status.counts.blocked > 0 ? try await source.blockedCounts() : [:]
    return (status, blocked)
  }

  /// Connects, again and again with backoff (1 s doubling to 30 s) while it fails; nil once stopped.
  private func connectWithBackoff() async -> (any QueueSource)? {
    var delay = 1.0
    while !stopped {
      let result: Result<any QueueSource, FleetConnectFailure> = await withCheckedContinuation { done in
        DetachedThread.start(name: "verdicts-fleet-connect") { [connect, host, describe] in
          do {
            done.resume(returning: .success(try connect(host)))
          } catch let failure as FleetConnectFailure {
            done.resume(returning: .failure(failure))
          } catch {
            done.resume(returning: .failure(FleetConnectFailure(message: describe(error))))
          }
        }
      }
      switch result {
      case .success(let source):
        let keep = state.withLock { s -> Bool in
          guard !s.stopped else { return false }
          s.source = source
          return true
        }
        guard keep else {
          source.close()
          return nil
        }
        return source
      case .failure(let failure):
        markDown(Sanitizer.clean(failure.message))
        _ = await waitForKick(upTo: delay)
        delay = min(delay * 2, 30)
      }
    }
    return nil
  }

  /// Wakes the watch on every change the device sends and every word about its link.
  private func listen(_ source: any QueueSource) {
    var tasks: [Task<Void, Never>] = [
      Task.detached { [self] in
        for await _ in source.changes() { kick() }
      }
    ]
    if let notices = source.linkNotices() {
      tasks.append(Task.detached { [self] in for await _ in notices { kick() } })
    }
    if let files = source.storeFileEvents() {
      tasks.append(Task.detached { [self] in for await _ in files { kick() } })
    }
    let stopped = state.withLock { s -> Bool in
      s.listeners = tasks
      return s.stopped
    }
    if stopped { for t in tasks { t.cancel() } }
  }

  private func kick() {
    let (waiter, sleeper) = state.withLock { s -> (CheckedContinuation<Bool, Never>?, Task<Void, Never>?) in
      defer {
        s.waiter = nil
        s.sleeper = nil
      }
      if s.waiter == nil { s.kicked = true }
      return (s.waiter, s.sleeper)
    }
    sleeper?.cancel()
    waiter?.resume(returning: true)
  }

  /// Waits for a kick (true) or `seconds` (false).
  private func waitForKick(upTo seconds: Double) async -> Bool {
    await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
      let ready = state.withLock { s -> Bool in
        if s.kicked || s.stopped {
          s.kicked = false
          return true
        }
        s.waiter = c
        return false
      }
      if ready {
        c.resume(returning: true)
        return
      }
      let sleeper = Task.detached { [self] in
        try? await Task.sleep(for: .seconds(seconds))
        if Task.isCancelled { return }
        let w = state.withLock { s -> CheckedContinuation<Bool, Never>? in
          defer {
            s.waiter = nil
            s.sleeper = nil
          }
          return s.waiter
        }
        w?.resume(returning: false)
      }
      // A kick between the two locks found no sleeper to cancel: this one then finds no waiter.
      state.withLock { s in if s.waiter != nil { s.sleeper = sleeper } }
    }
  }

  private enum Outcome<T: Sendable>: Sendable {
    case value(T)
    case failure(any Error)
    case late
  }

  /// The task's result, or `.late` when it has none within `seconds` (the task goes on).
  private static func outcome<T: Sendable>(of task: Task<T, any Error>, within seconds: Double) async -> Outcome<T> {
    let gate = Mutex<CheckedContinuation<Outcome<T>, Never>?>(nil)
    return await withCheckedContinuation { c in
      gate.withLock { $0 = c }
      let timer = Task.detached {
        try? await Task.sleep(for: .seconds(seconds))
        if Task.isCancelled { return }
        gate.withLock { g in
          defer { g = nil }
          return g
        }?.resume(returning: .late)
      }
      Task.detached {
        let result: Outcome<T>
        do { result = .value(try await task.value) } catch { result = .failure(error) }
        timer.cancel()
        gate.withLock { g in
          defer { g = nil }
          return g
        }?.resume(returning: result)
      }
    }
  }
}
