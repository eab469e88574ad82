import FoundationEssentials
import MarfaQueue
import MarfaWire
import VerdictsUI

#if canImport(Glibc)
  import Glibc
#endif

/// A store on a device, read and acted on through `ssh … verdicts serve` (docs/remote.md): the
/// screen's ``QueueSource`` whose every call crosses the link, and whose changes the device
/// sends. A link that drops is seen when ssh ends (its keepalive gives up within about 15 s of
/// silence; a reset at once), said on ``linkNotices()``, and made again with backoff; the screen
/// then reads everything again, so nothing is lost or doubled in its view.
package final class RemoteSource: QueueSource {
  /// What can go wrong before a link is up, in one line.
  package struct LinkFailure: Error, Sendable {
    /// The line.
    package var message: String
  }

  private struct State {
    var process: LinkProcess?
    var greeting: RemoteGreeting
    var nextID = 1
    var waiting: [Int: CheckedContinuation<RemoteValue, any Error>] = [:]
    var changeStreams: [Int: AsyncStream<Change>.Continuation] = [:]
    var updateStreams: [Int: AsyncStream<Update>.Continuation] = [:]
    var fileStreams: [Int: AsyncStream<Void>.Continuation] = [:]
    var noticeStreams: [Int: AsyncStream<String>.Continuation] = [:]
    var nextStream = 1
    var fileState: StoreFileState = .same
    var closed = false
    var lostAt: Date?
    var received = 0
    /// The last page of each pane (under a filter and an order) as it came: each write and its
    /// digest, so the next read asks only for what changed. Emptied when the link is made again.
    var pages: [PageKey: [(QueuedWrite, UInt64)]] = [:]
  }

  private struct PageKey: Hashable {
    var pane: QueuePane
    var filter: String?
    var order: PaneOrder
  }

  /// The store this source reads.
  package let store: RemoteStore
  private let environment: [String: String]
  private let writer: Bool
  private let instance: String?
  private let keepalive: Keepalive
  private let state: Mutex<State>

  /// Opens a link to `store` and reads the device's greeting; `writer` asks the device to take
  /// the writer role when it is free (the screen), else it only reads (`watch`). Throws
  /// ``LinkFailure`` in one line when ssh, the device or its `verdicts` cannot serve.
  /// `instance`: the URL the device's drains go to (`--url` typed here), else the device's own.
  package init(
    store: RemoteStore, environment: [String: String], writer: Bool, instance: String? = nil,
    keepalive: Keepalive = .screen
  ) throws {
    self.store = store
    self.environment = environment
    self.writer = writer
    self.instance = instance
    self.keepalive = keepalive
    let (process, greeting) = try Self.connect(
      store, environment: environment, writer: writer, instance: instance, keepalive: keepalive)
    state = Mutex(State(process: process, greeting: greeting))
    startReading(process)
  }

  /// How often ssh asks the device whether it is there when nothing crosses, and how many
  /// unanswered asks end the link: a silent link is seen within `every × misses` seconds. The asks
  /// are ssh's own (`ServerAliveInterval`, `ServerAliveCountMax`), a few dozen bytes each.
  package struct Keepalive: Sendable {
    /// Seconds of silence before each ask.
    package var every: Int
    /// Asks unanswered before the link counts as lost.
    package var misses: Int

    /// The screen and `watch`: seen within 15 s.
    package static let screen = Keepalive(every: 5, misses: 3)
    /// `fleet`, whose row must say a device is gone within 10 s: seen within 4–6 s.
    package static let fleet = Keepalive(every: 2, misses: 2)
  }

  /// The ssh options every link takes: no prompt (the screen holds the terminal), the keepalive,
  /// compression, and a bounded connect.
  package static func sshOptions(_ keepalive: Keepalive) -> [String] {
    [
      "-T", "-o", "BatchMode=yes", "-o", "ServerAliveInterval=\(keepalive.every)", "-o",
      "ServerAliveCountMax=\(keepalive.misses)", "-o", "Compression=yes", "-o", "ConnectTimeout=10",
    ]
  }

  private static func connect(
    _ store: RemoteStore, environment: [String: String], writer: Bool, instance: String?, keepalive: Keepalive
  ) throws -> (LinkProcess, RemoteGreeting) {
    var remote = [RemoteStore.program(environment)]
    if let path = store.path { remote += ["--store", path] }
    if let instance { remote += ["--url", instance] }
    remote += ["serve"] + (writer ? ["--writer"] : [])
    let argv = store.command(running: remote, environment: environment, options: sshOptions(keepalive))
    let process = try LinkProcess(argv, environment: environment)
    var reader = LineReader(fd: process.output)
    guard let first = reader.next(), let greeting = RemoteWire.message(first)?.greeting else {
      let code = process.stop(grace: .seconds(1))
      throw LinkFailure(message: Self.noGreeting(store, code: code, said: process.stderrText))
    }
    guard greeting.versions.contains(where: RemoteWire.versions.contains) else {
      process.stop()
      throw LinkFailure(
        message:
          "\(store.destination)'s verdicts (\(Sanitizer.clean(greeting.program))) speaks remote protocol "
          + "\(greeting.versions.map(String.init).joined(separator: ", ")); this one speaks "
          + "\(RemoteWire.versions.map(String.init).joined(separator: ", ")): install one release on both")
    }
    return (process, greeting)
  }

  /// Why a link ended before the device said who it is, in one line.
  static func noGreeting(_ store: RemoteStore, code: Int32, said: String) -> String {
    let host = Sanitizer.clean(store.destination)
    let words = said.isEmpty ? "" : " (\(said))"
    switch code {
    case 127:
      return "verdicts was not found on \(host)\(words): install it there, or name it with VERDICTS_REMOTE_PATH"
    case 126: return "verdicts on \(host) could not be run\(words)"
    case 255: return "ssh could not reach \(host)\(words)"
    case 2: return "\(host)'s verdicts cannot serve a remote screen (too old: it has no `serve`)\(words)"
    default: return "\(host)'s verdicts ended without serving (exit \(code))\(words)"
    }
  }

  // MARK: - The link

  private func startReading(_ process: LinkProcess) {
    DetachedThread.start(name: "verdicts-link") { [self] in
      var reader = LineReader(fd: process.output)
      while let line = reader.next() {
        state.withLock { $0.received += line.count + 1 }
        guard let message = RemoteWire.message(line) else { continue }
        deliver(message)
      }
      let code = process.stop(grace: .milliseconds(500))
      linkEnded(process, code: code)
    }
  }

  private func deliver(_ message: RemoteMessage) {
    if let id = message.id {
      let waiter = state.withLock { $0.waiting.removeValue(forKey: id) }
      if let value = message.value {
        waiter?.resume(returning: value)
      } else {
        waiter?.resume(throwing: message.failure.map(Self.error) ?? LinkFailure(message: "an empty answer"))
      }
      return
    }
    if let change = message.change {
      for c in state.withLock({ Array($0.changeStreams.values) }) { c.yield(change) }
    }
    if let update = message.update {
      for c in state.withLock({ Array($0.updateStreams.values) }) { c.yield(update) }
    }
    if let file = message.file {
      let streams = state.withLock { s in
        s.fileState = file
        return Array(s.fileStreams.values)
      }
      for c in streams { c.yield(()) }
    }
  }

  private static func error(_ failure: RemoteFailure) -> any Error {
    if let queue = failure.queue { return queue }
    return LinkFailure(message: Sanitizer.clean(failure.message))
  }

  private func linkEnded(_ process: LinkProcess, code: Int32) {
    let (waiters, closed) = state.withLock { s -> ([CheckedContinuation<RemoteValue, any Error>], Bool) in
      guard s.process === process else { return ([], true) }
      s.process = nil
      s.lostAt = Date()
      let w = Array(s.waiting.values)
      s.waiting = [:]
      return (w, s.closed)
    }
    let lost = LinkFailure(message: "the link to \(Sanitizer.clean(store.destination)) was lost")
    for w in waiters { w.resume(throwing: lost) }
    guard !closed else { return }
    let said = process.stderrText
    notice(
      "link to \(Sanitizer.clean(store.destination)) lost at \(Self.clock(Date()))\(said.isEmpty ? "" : " (\(said))"): "
        + "showing what it last said; trying again")
    reconnect()
  }

  private func reconnect() {
    var delay = 1.0
    while !state.withLock({ $0.closed }) {
      usleep(UInt32(delay * 1_000_000))
      if state.withLock({ $0.closed }) { return }
      if let (process, greeting) = try? Self.connect(
        store, environment: environment, writer: writer, instance: instance, keepalive: keepalive)
      {
        let (follows, closed) = state.withLock { s -> ((Bool, Bool), Bool) in
          s.process = process
          s.greeting = greeting
          s.lostAt = nil
          s.pages = [:]
          return ((!s.updateStreams.isEmpty, !s.fileStreams.isEmpty), s.closed)
        }
        if closed {
          process.stop()
          return
        }
        startReading(process)
        Task.detached { [self] in
          if follows.0 { _ = try? await call(.followUpdates(on: true)) }
          if follows.1 { _ = try? await call(.followFiles) }
        }
        notice("link to \(Sanitizer.clean(store.destination)) back at \(Self.clock(Date())): read again")
        for c in state.withLock({ Array($0.changeStreams.values) }) { c.yield(.refreshed(.caughtUp)) }
        return
      }
      delay = min(delay * 2, 30)
    }
  }

  private func notice(_ text: String) {
    for c in state.withLock({ Array($0.noticeStreams.values) }) { c.yield(text) }
  }

  private static func clock(_ date: Date) -> String {
    String(Timestamp.text(date).dropFirst(11).prefix(8))
  }

  /// Sends one call and waits for its answer.
  func call(_ call: RemoteCall) async throws -> RemoteValue {
    try await withCheckedThrowingContinuation { continuation in
      let sent: (LinkProcess, Int)? = state.withLock { s in
        guard let process = s.process else { return nil }
        guard s.greeting.offers.contains(call.name) else { return nil }
        let id = s.nextID
        s.nextID += 1
        s.waiting[id] = continuation
        return (process, id)
      }
      guard let (process, id) = sent else {
        let offered = state.withLock { $0.process == nil || $0.greeting.offers.contains(call.name) }
        continuation.resume(
          throwing: LinkFailure(
            message: offered
              ? "the link to \(Sanitizer.clean(store.destination)) is down"
              : "\(Sanitizer.clean(store.destination))'s verdicts does not offer \(call.name) (an older release)"))
        return
      }
      if !process.send(RemoteWire.line(RemoteMessage(id: id, call: call))) {
        let w = state.withLock { $0.waiting.removeValue(forKey: id) }
        w?.resume(throwing: LinkFailure(message: "the link to \(Sanitizer.clean(store.destination)) was lost"))
      }
    }
  }

  private func unexpected(_ value: RemoteValue) -> LinkFailure {
    LinkFailure(message: "\(Sanitizer.clean(store.destination)) answered with something else: \(value)")
  }

  // MARK: - QueueSource

  /// Whether a page's writes come without bodies and answers: `page_summaries` and `page_rows`
  /// send summaries.
  package var pagesAreSummaries: Bool {
    state.withLock { $0.greeting.offers.contains("page_summaries") || $0.greeting.offers.contains("page_rows") }
  }

  /// Whether the device holds the writer role for this link.
  package var handle: Handle { state.withLock { $0.greeting.handle } }
  /// The instance the device talks to.
  package var instanceURL: String? { state.withLock { $0.greeting.instance } }
  /// The bytes the device sent since this source opened (its answers and news; not a greeting), as
  /// ssh handed them over: before ssh's own framing and compression.
  package var bytesReceived: Int { state.withLock { $0.received } }
  /// The greeting the device gave last.
  package var greeting: RemoteGreeting { state.withLock { $0.greeting } }

  package func page(_ pane: QueuePane, offset: Int, limit: Int, filter: String?, order: PaneOrder) async throws
    -> QueuePage
  {
    let key = PageKey(pane: pane, filter: filter, order: order)
    let (offers, held) = state.withLock { s in (Set(s.greeting.offers), s.pages[key] ?? []) }
    var kept: [(QueuedWrite, UInt64)] = []
    if offers.contains("page_summaries") {
      let known = held.map { KnownRow(id: $0.0.id, digest: $0.1) }
      let v = try await call(
        .pageSummaries(pane: pane, offset: offset, limit: limit, filter: filter, order: order, known: known))
      guard case .summaryRows(let p, let o, let total, let rows) = v else { throw unexpected(v) }
      for row in rows {
        switch row {
        case .write(let w): kept.append((w, RemoteWire.digest(w)))
        case .same(let i):
          // One of the rows the call named as held, by its place in `known`.
          guard held.indices.contains(i) else {
            throw LinkFailure(message: "the device named a row this screen does not hold")
          }
          kept.append(held[i])
        }
      }
      state.withLock { $0.pages[key] = kept }
      return QueuePage(pane: p, offset: o, writes: kept.map(\.0), total: total)
    }
    guard offers.contains("page_rows") else {
      let v = try await call(.page(pane: pane, offset: offset, limit: limit, filter: filter, order: order))
      guard case .page(let page) = v else { throw unexpected(v) }
      return page
    }
    let byID = Dictionary(held.map { ($0.0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let v = try await call(
      .pageRows(pane: pane, offset: offset, limit: limit, filter: filter, order: order, known: byID.mapValues(\.1)))
    guard case .rows(let p, let o, let total, let rows) = v else { throw unexpected(v) }
    for row in rows {
      switch row {
      case .write(let w, let digest): kept.append((w, digest))
      case .same(let id):
        // Held when the call went out: the answer names only what was sent as known.
        guard let w = byID[id] else { throw LinkFailure(message: "the device named a row this screen does not hold") }
        kept.append(w)
      }
    }
    state.withLock { $0.pages[key] = kept }
    return QueuePage(pane: p, offset: o, writes: kept.map(\.0), total: total)
  }

  package func status() async throws -> Status {
    let v = try await call(.status)
    guard case .status(var s) = v else { throw unexpected(v) }
    // The store as a person names it from here: host:path.
    s.store = store.destination + ":" + s.store
    return s
  }

  package func write(_ id: String) async throws -> QueuedWrite { try await oneWrite(.write(id: id)) }
  package func shownWrite(_ id: String) async throws -> QueuedWrite { try await oneWrite(.shownWrite(id: id)) }

  private func oneWrite(_ c: RemoteCall) async throws -> QueuedWrite {
    let v = try await call(c)
    guard case .write(let w) = v else { throw unexpected(v) }
    return w
  }

  private func flag(_ c: RemoteCall) async throws -> Bool {
    let v = try await call(c)
    guard case .flag(let b) = v else { throw unexpected(v) }
    return b
  }

  private func count(_ c: RemoteCall) async throws -> Int {
    let v = try await call(c)
    guard case .count(let n) = v else { throw unexpected(v) }
    return n
  }

  package func release(_ id: String) async throws -> Bool { try await flag(.release(id: id)) }
  package func release(reason: BlockedReason) async throws -> Int { try await count(.releaseReason(reason: reason)) }
  package func release(ids: [String]) async throws -> [ReleaseOutcome] {
    let v = try await call(.releaseIDs(ids: ids))
    guard case .outcomes(let o) = v else { throw unexpected(v) }
    return o
  }
  package func withdraw(_ id: String) async throws -> Bool { try await flag(.withdraw(id: id)) }
  package func discard(_ id: String) async throws -> Bool { try await flag(.discard(id: id)) }
  package func takeAnswered() async throws -> [QueuedWrite] {
    let v = try await call(.takeAnswered)
    guard case .writes(let w) = v else { throw unexpected(v) }
    return w
  }
  package func forgetAnswered(ids: [String]) async throws -> Int { try await count(.forgetAnswered(ids: ids)) }
  package func undo(_ id: String) async throws -> UndoOutcome {
    let v = try await call(.undo(id: id))
    guard case .undo(let o) = v else { throw unexpected(v) }
    return o
  }
  package func drain() async throws -> DrainReport {
    let v = try await call(.drain)
    guard case .report(let r) = v else { throw unexpected(v) }
    return r
  }
  package func useKey(_ key: String) async throws { _ = try await call(.useKey(key: key)) }
  package func fill() async throws { _ = try await call(.fill) }

  package func lastRelease() async throws -> ReleaseBatch? {
    guard state.withLock({ $0.greeting.offers.contains("last_release") }) else { return nil }
    let v = try await call(.lastRelease)
    guard case .release(let batch) = v else { throw unexpected(v) }
    return batch
  }

  package func undoRelease(_ batch: Int) async throws -> ReleaseUndo {
    let v = try await call(.undoRelease(batch: batch))
    guard case .releaseUndo(let undo) = v else { throw unexpected(v) }
    return undo
  }

  package func summaries(_ pane: QueuePane, cursor: Int, limit: Int) async throws -> (writes: [QueuedWrite], next: Int)
  {
    let v = try await call(.summaries(pane: pane, cursor: cursor, limit: limit))
    guard case .summaries(let writes, let next) = v else { throw unexpected(v) }
    return (writes, next)
  }

  package func locate(_ id: String, filter: String?, limit: Int, order: PaneOrder) async throws -> (QueuePane, Int)? {
    let v = try await call(.locate(id: id, filter: filter, limit: limit, order: order))
    guard case .located(let pane, let index) = v else { throw unexpected(v) }
    return pane.map { ($0, index) }
  }

  package func changed(since mark: Int?) async throws -> ChangedWrites? {
    let v = try await call(.changed(since: mark))
    guard case .changed(let c) = v else { throw unexpected(v) }
    return c
  }

  package func writer() async throws -> WriterRecord? {
    let v = try await call(.writer)
    guard case .writer(let w) = v else { throw unexpected(v) }
    return w
  }

  package func lastDrainEndedAt() async throws -> String? {
    let v = try await call(.lastDrainEndedAt)
    guard case .text(let t) = v else { throw unexpected(v) }
    return t
  }

  package func history(limit: Int) async throws -> [DrainRecord] {
    let v = try await call(.history(limit: limit))
    guard case .history(let h) = v else { throw unexpected(v) }
    return h
  }

  package func attempts(of id: String) async throws -> WriteAttempts? {
    let v = try await call(.attempts(id: id))
    guard case .attempts(let a) = v else { throw unexpected(v) }
    return a
  }

  package func departedWrite(_ id: String) async throws -> DepartedWrite? {
    let v = try await call(.departedWrite(id: id))
    guard case .departed(let d) = v else { throw unexpected(v) }
    return d
  }

  package func blockedCounts() async throws -> [BlockedReason: Int] {
    let v = try await call(.blockedCounts)
    guard case .counts(let c) = v else { throw unexpected(v) }
    return c
  }

  package func resolveID(_ typed: String) async throws -> String {
    let v = try await call(.resolveID(typed: typed))
    guard case .text(let t?) = v else { throw unexpected(v) }
    return t
  }

  package func changes() -> AsyncStream<Change> {
    let (stream, continuation) = AsyncStream<Change>.makeStream()
    let key = register { s, k in s.changeStreams[k] = continuation }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.changeStreams.removeValue(forKey: key) }
    }
    return stream
  }

  package func updates() -> AsyncStream<Update> {
    let (stream, continuation) = AsyncStream<Update>.makeStream()
    let key = register { s, k in s.updateStreams[k] = continuation }
    Task.detached { [self] in _ = try? await call(.followUpdates(on: true)) }
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      let last = state.withLock { s in
        s.updateStreams.removeValue(forKey: key)
        return s.updateStreams.isEmpty
      }
      if last { Task.detached { _ = try? await self.call(.followUpdates(on: false)) } }
    }
    return stream
  }

  package func storeFileEvents() -> AsyncStream<Void>? {
    guard state.withLock({ $0.greeting.offers.contains("follow_files") }) else { return nil }
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    let key = register { s, k in s.fileStreams[k] = continuation }
    Task.detached { [self] in _ = try? await call(.followFiles) }
    continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.fileStreams.removeValue(forKey: key) }
    }
    return stream
  }

  package func linkNotices() -> AsyncStream<String>? {
    let (stream, continuation) = AsyncStream<String>.makeStream()
    let key = register { s, k in s.noticeStreams[k] = continuation }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.noticeStreams.removeValue(forKey: key) }
    }
    return stream
  }

  private func register(_ add: (inout State, Int) -> Void) -> Int {
    state.withLock { s in
      let k = s.nextStream
      s.nextStream += 1
      add(&s, k)
      return k
    }
  }

  package func storeFileState() -> StoreFileState { state.withLock { $0.fileState } }

  package func close() {
    let (process, streams) = state.withLock { s -> (LinkProcess?, [() -> Void]) in
      s.closed = true
      let p = s.process
      s.process = nil
      let finish: [() -> Void] =
        s.changeStreams.values.map { c in { c.finish() } } + s.updateStreams.values.map { c in { c.finish() } }
        + s.fileStreams.values.map { c in { c.finish() } } + s.noticeStreams.values.map { c in { c.finish() } }
      return (p, finish)
    }
    process?.stop()
    for f in streams { f() }
  }
}
