import CSQLite

/// Reading the change log (``StoreSchema/changeLog``).
extension SQLite {
  /// More distinct writes than this after a mark are read faster by reading the whole queue.
  static let changedWritesLimit = 20_000
  /// The most log entries one reading covers: a reader that fell behind (a watcher stopped, a
  /// slow link) takes its backlog a page at a time (``ChangedWrites/more``), so what it holds
  /// does not grow with the backlog.
  static let changedPage = 250
  /// The writes the queue still holds of those a JSON array of ids names.
  static let changedWritesSQL = "SELECT \(summaryColumns) FROM queue WHERE id IN (SELECT value FROM json_each(?))"

  /// Whether the store keeps its change log.
  func hasChangeLog() throws -> Bool {
    try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'change_log'") == 1
  }

  /// Whether the store records why writes left (``StoreSchema/departures``).
  func hasDepartures() throws -> Bool {
    try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'departures'") == 1
  }

  /// Why the write left the queue, as last recorded; nil when the store does not say.
  func departure(of id: String) throws -> Departure? {
    try rows(
      "SELECT event FROM departures WHERE id = ? ORDER BY n DESC LIMIT 1", [.text(id)], reading: DepartureColumn.self
    ) { $0.text(.event) }.first.flatMap { $0.flatMap(Departure.init(rawValue:)) }
  }

  /// The writes changed after `mark`, a page of at most ``changedPage`` log entries at a time
  /// (with nil, nothing, and where the log stands now); nil when the log cannot say: the store
  /// keeps none, the entries after `mark` were pruned, or more writes changed than
  /// ``changedWritesLimit``.
  func changed(since mark: Int?) throws -> ChangedWrites? {
    guard try hasChangeLog() else { return nil }
    let newest = try scalar("SELECT coalesce(max(n), 0) FROM change_log") ?? 0
    guard let mark else { return ChangedWrites(writes: [], gone: [], mark: newest) }
    if mark == newest { return ChangedWrites(writes: [], gone: [], mark: newest) }
    // A mark past the newest entry is from another log; one before the oldest kept was pruned.
    let oldest = try scalar("SELECT coalesce(min(n), 0) FROM change_log") ?? 0
    guard mark < newest, oldest <= mark + 1 else { return nil }
    // Counted only when the entries left could name more writes than the limit: each page of a
    // long backlog asks again, and a short one never needs to.
    if newest - mark > SQLite.changedWritesLimit {
      let distinct =
        try scalar(
          "SELECT count(*) FROM (SELECT id FROM change_log WHERE n > ? AND n <= ? GROUP BY id LIMIT ?)",
          [.int(mark), .int(newest), .int(SQLite.changedWritesLimit + 1)]) ?? 0
      guard distinct <= SQLite.changedWritesLimit else { return nil }
    }
    // One page of the backlog: the writes its entries name, each once, and the last entry read.
    var ids: [String] = []
    var named: Set<String> = []
    var through = mark
    try query(
      "SELECT n, id FROM change_log WHERE n > ? AND n <= ? ORDER BY n LIMIT ?",
      [.int(mark), .int(newest), .int(SQLite.changedPage)], reading: ChangeLogColumn.self
    ) { r in
      through = r.int(.n) ?? through
      if let id = r.text(.id), named.insert(id).inserted { ids.append(id) }
    }
    // The writes of the page still held, in one statement: a statement a write cost more than
    // reading the write (a watcher of a drain reads every write the drain answers). The ids are
    // bound, not read from the log again: a prune between the two reads could empty that page.
    var found: [QueuedWrite] = []
    var seqs: [Int] = []
    found.reserveCapacity(ids.count)
    seqs.reserveCapacity(ids.count)
    try query(SQLite.changedWritesSQL, [.text(QueueCodec.stored(ids))], reading: QueueColumn.self) { r in
      let (seq, write) = QueueCodec.sequenced(from: r)
      seqs.append(seq)
      found.append(write)
    }
    // In send order; the rows mostly come in it already, and a write is a large value to move.
    if !zip(seqs, seqs.dropFirst()).allSatisfy({ $0 < $1 }) {
      found = seqs.indices.sorted { seqs[$0] < seqs[$1] }.map { found[$0] }
    }
    // Most pages name only writes still held: only a page short of some looks for which.
    var gone: [String] = []
    if found.count < ids.count {
      let held = Set(found.lazy.map(\.id))
      gone = ids.filter { !held.contains($0) }
    }
    // The pages read stay in the connection's cache only until the next commit makes them stale;
    // a reader catching up on a backlog would otherwise grow its cache page by page to its bound.
    if let db { sqlite3_db_release_memory(db) }
    var departures: [String: Departure] = [:]
    if !gone.isEmpty, try hasDepartures() {
      for id in gone { departures[id] = try departure(of: id) }
    }
    return ChangedWrites(
      writes: found, gone: gone.sorted(), mark: through, departures: departures, more: through < newest)
  }
}
