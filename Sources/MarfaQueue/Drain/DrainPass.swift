import FoundationEssentials

/// One pass of the drain (contract section 5, with docs/rules.md).
struct DrainPass {
  let copy: WorkingCopy
  let store: Store
  let client: HTTPClient
  let server: Server
  /// The pass's decisions and counts (no I/O); this loop tells it what happened.
  var machine = DrainMachine()
  /// The writes the machine set aside, as the batch read them (for their report entries).
  var setAsideWrites: [String: QueuedWrite] = [:]

  /// The report so far: the machine's counts and the verdicts listed here. (The loop changes
  /// `machine.report` in place: through a get/set property each append would copy the list.)
  var report: DrainReport { machine.report }

  /// The report's counts for the pass's history row (nil when it keeps none), owed to the row
  /// by the group's next commit once the verdicts they count are stored.
  var tally: DrainTally? { drainNumber.map { DrainTally(number: $0, machine.report) } }

  /// The writes set aside in this pass.
  var setAside: Set<String> { Set(machine.setAside.keys) }
  /// How many verdict entries the report keeps listed (nil: every one).
  var keeping: Int?
  /// The next write, already planned, marked sent (behind the last verdict) and ready to go.
  var primed: (write: QueuedWrite, request: WriteRequest, url: URL)?
  /// The store's work a visit leaves for the next, done while the next request is out (the
  /// verdict it reached and the primed write marked sent), and the verdict to tell the streams
  /// once it is stored.
  var owed: (work: @Sendable (SQLite) throws -> Void, verdict: DrainVerdict)?
  /// The drain's progress as last published in the writer's record (nil until the pass sends).
  var progress: WriterRecord.DrainProgress?
  /// When ``progress`` was last written.
  var lastPublished: ContinuousClock.Instant?
  /// The pass's number in the store's history of drains (``DrainRecord``); nil until begun, and
  /// for a pass that came to nothing or a store that keeps no history.
  var drainNumber: Int?

  init(copy: WorkingCopy, client: HTTPClient, server: Server, keeping: Int? = nil) {
    self.copy = copy
    self.keeping = keeping
    self.store = copy.store
    self.client = client
    self.server = server
  }

  /// Lists a write's outcome in the report and, when it has a verdict, tells the streams at once
  /// (a screen watching the drain moves as each answer lands, not at the end of the pass).
  mutating func record(_ verdict: DrainVerdict) {
    machine.report.list(verdict, keeping: keeping)
    if verdict.verdict != nil { copy.hub.send(.answered(verdict)) }
  }

  /// Tells the machine of a write the pass came to and settled without a request (or found
  /// gone): the machine only counts it.
  mutating func count(_ unsent: DrainMachine.Unsent) { tell(.unsent(unsent)) }

  /// Tells the machine an event whose action this loop takes itself, or that asks none (a count,
  /// the end of the pass): the machine's answer is not needed.
  mutating func tell(_ event: DrainMachine.Event) { _ = machine.event(event) }

  /// Runs the pass: its checks (``preflight()``), the reads an earlier drain owes, the unanswered
  /// writes in send order a batch at a time, then the writes failing alone.
  mutating func run() async throws -> DrainReport {
    machine.report.startedAt = Timestamp.now()
    guard let start = try await preflight() else { return machine.report }
    guard try await readOwedRows(start.owed, pending: start.pending) else { return machine.report }
    guard try await landOwed(pending: start.pending) else { return machine.report }
    // The pass's bookkeeping commits in groups (docs/architecture.md, "The store's interface"); Queue.drain commits the last one.
    try await store.run { try $0.beginGroup() }
    try await beginProgress(total: start.pending)
    try await sendBatches(copyInstance: start.copyInstance)
    // What the last visit left for the store is stored before the pass goes on.
    try await payOwed()
    try await blockFailingAlone()
    return machine.report
  }
}
