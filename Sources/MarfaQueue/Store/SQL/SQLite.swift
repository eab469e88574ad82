import CSQLite
import Dispatch
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// One SQLite connection. Not thread-safe: the ``Store`` confines it to its own queue.
final class SQLite {
  let path: String
  private(set) var db: OpaquePointer?
  private var statements: [String: SQLStatement] = [:]
  /// The same statements by the address of their text's bytes (``prepared(_:)``): a text kept as a
  /// key of `statements` stays alive, so no other text can take its address while it is here.
  private var statementsByAddress: [UInt: SQLStatement] = [:]
  private var synchronousFull = false
  /// The first number out of range this connection read (``StoreDamage``), said once.
  var damage: StoreDamage?
  /// Whether this connection has seen the queue's `payload_sha` column: once there it stays
  /// (nothing drops it), so a drain asks the file once, not before every write.
  var payloadChecksumsSeen = false
  /// Whether the store was seen to keep what edits read (``SQLite/keepsEditReads()``).
  var editReadsSeen = false
  /// Writes whose requests went out while the group was open, to be marked sent when it commits
  /// (``markSentByCommit(_:)``); emptied by every commit and rollback of the group.
  var sentMarksOwed: [String] = []
  /// The open drain's counts as its stored verdicts come to, owed to its history row by the
  /// group's next commit (``oweDrainTally(_:)``): one statement a commit, none a write.
  var drainTallyOwed: DrainTally?

  /// A failure of SQLite itself, with its primary result code.
  struct Failure: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    /// The `errno` of the system call that failed under SQLite, when one did (0 otherwise).
    var systemErrno: Int32 = 0
    var description: String { message }
    /// The disk (or the user's quota) is full: SQLite's own code, or an I/O error whose system
    /// call failed with `ENOSPC`/`EDQUOT` (a WAL index or journal that could not grow).
    var isFull: Bool {
      code & 0xFF == SQLITE_FULL
        || (code & 0xFF == SQLITE_IOERR && (systemErrno == ENOSPC || systemErrno == EDQUOT))
    }
    var isNotADatabase: Bool { code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT }
    var isReadOnly: Bool { code & 0xFF == SQLITE_READONLY || code & 0xFF == SQLITE_CANTOPEN }
  }

  /// Whether this process's SQLite configuration holds (`csqlite_configure`: a savepoint's undo
  /// stays in memory up to 124 KiB). Set before the first open; false when something opened a
  /// database before (SQLite then keeps its defaults, slower, never wrong).
  ///
  /// A drain keeps each write's bookkeeping in a savepoint of its group
  /// (``transaction(durable:_:)``), about 22 pages; past SQLite's 64 KiB default every savepoint
  /// of the group went to a temporary file, 43 `pwrite` calls a drained write.
  static let configured: Bool = csqlite_configure() != 0

  init(path: String, readOnly: Bool) throws {
    self.path = path
    _ = SQLite.configured
    var handle: OpaquePointer?
    let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
    let rc = sqlite3_open_v2(path, &handle, flags, nil)
    guard rc == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      sqlite3_close(handle)
      throw Failure(code: rc, message: message)
    }
    db = handle
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, 5000)
  }

  deinit { close() }

  func close() {
    for (_, s) in statements { sqlite3_finalize(s.handle) }
    statements.removeAll()
    statementsByAddress.removeAll()
    if let db { sqlite3_close_v2(db) }
    db = nil
  }

  private func failure(_ rc: Int32) -> Failure {
    Failure(
      code: rc, message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "closed",
      systemErrno: db.map { sqlite3_system_errno($0) } ?? 0)
  }

  /// Runs SQL that returns no rows (one or more statements).
  func execute(_ sql: String) throws {
    var err: UnsafeMutablePointer<CChar>?
    let rc = sqlite3_exec(db, sql, nil, nil, &err)
    if rc != SQLITE_OK {
      let message = err.map { String(cString: $0) } ?? "error \(rc)"
      sqlite3_free(err)
      throw Failure(code: rc, message: message, systemErrno: db.map { sqlite3_system_errno($0) } ?? 0)
    }
  }

  /// Runs one statement with bound values, calling `row` for each result row.
  func query(_ sql: String, _ values: [SQLValue] = [], row: (Row) throws -> Void = { _ in }) throws {
    let statement = try prepared(sql)
    try run(statement, values) { try row(Row(stmt: statement.handle, statement: statement)) }
  }

  /// Runs one statement with bound values, calling `row` for each result row read by the names
  /// of `columns` (resolved once per prepared statement).
  func query<C: SQLColumn>(
    _ sql: String, _ values: [SQLValue] = [], reading columns: C.Type, row: (ColumnRow<C>) throws -> Void
  ) throws {
    let statement = try prepared(sql)
    let named = ColumnRow<C>(stmt: statement.handle, positions: statement.positions(of: C.self))
    try run(statement, values) { try row(named) }
  }

  /// Runs one statement, calling `row` with each result row read by the names of two tables'
  /// columns (a row that joins what both name, as the archive's: its own and the write's).
  func query<A: SQLColumn, B: SQLColumn>(
    _ sql: String, _ values: [SQLValue] = [], reading first: A.Type, and second: B.Type,
    row: (ColumnRow<A>, ColumnRow<B>) throws -> Void
  ) throws {
    let statement = try prepared(sql)
    let a = ColumnRow<A>(stmt: statement.handle, positions: statement.positions(of: A.self))
    let b = ColumnRow<B>(stmt: statement.handle, positions: statement.positions(of: B.self))
    try run(statement, values) { try row(a, b) }
  }

  /// Runs one statement and returns its rows, read by the names of `columns`, mapped by `map`.
  func rows<C: SQLColumn, T>(
    _ sql: String, _ values: [SQLValue] = [], reading columns: C.Type, _ map: (ColumnRow<C>) throws -> T
  ) throws -> [T] {
    var out: [T] = []
    try query(sql, values, reading: columns) { out.append(try map($0)) }
    return out
  }

  /// Inserts one row into `C`'s table, naming each column given.
  func insert<C: SQLColumn>(_ values: [(C, SQLValue)], or conflict: String? = nil) throws {
    let names = C.list(values.map(\.0))
    let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
    try query(
      "INSERT \(conflict.map { "OR \($0) " } ?? "")INTO \(C.table) (\(names)) VALUES (\(marks))", values.map(\.1))
  }

  /// Steps a statement whose parameters are already bound (``ColumnBinder``) to its end, then
  /// resets it and clears its bindings.
  func step(_ statement: SQLStatement) throws { try run(statement, []) {} }

  /// Binds `values`, steps the statement through, calling `row` on each row, and resets it.
  private func run(_ statement: SQLStatement, _ values: [SQLValue], row: () throws -> Void) throws {
    let stmt = statement.handle
    defer {
      sqlite3_reset(stmt)
      sqlite3_clear_bindings(stmt)
    }
    for (i, v) in values.enumerated() { SQLite.bind(v, at: Int32(i + 1), in: stmt) }
    while true {
      let rc = sqlite3_step(stmt)
      if rc == SQLITE_ROW {
        try row()
      } else if rc == SQLITE_DONE {
        return
      } else {
        throw failure(rc)
      }
    }
  }

  /// Binds one value to a parameter of a statement.
  static func bind(_ value: SQLValue, at index: Int32, in stmt: OpaquePointer) {
    switch value {
    case .null: sqlite3_bind_null(stmt, index)
    case .int(let n): sqlite3_bind_int64(stmt, index, Int64(n))
    case .text(var s):
      // With its byte length: text from outside (an answer) may hold NUL, which -1 would cut at.
      // An empty text is bound from a literal: a nil pointer would bind NULL.
      if s.utf8.isEmpty {
        sqlite3_bind_text(stmt, index, "", 0, csqlite_transient())
      } else {
        s.withUTF8 { bytes in
          bytes.withMemoryRebound(to: CChar.self) {
            _ = sqlite3_bind_text(stmt, index, $0.baseAddress, Int32($0.count), csqlite_transient())
          }
        }
      }
    }
  }

  /// The first `limit` bytes of a TEXT or BLOB value and its whole size in bytes, read through
  /// SQLite's incremental I/O (`sqlite3_blob_*`): only the pages holding those bytes are read,
  /// where `substr()` or `length()` load the whole value. Nil when the value is NULL, the row is
  /// gone, or it cannot be read.
  func valueStart(table: String, column: String, rowid: Int, limit: Int) -> (bytes: [UInt8], size: Int)? {
    guard let db else { return nil }
    var blob: OpaquePointer?
    guard sqlite3_blob_open(db, "main", table, column, Int64(rowid), 0, &blob) == SQLITE_OK, let blob else {
      sqlite3_blob_close(blob)
      return nil
    }
    defer { sqlite3_blob_close(blob) }
    let size = Int(sqlite3_blob_bytes(blob))
    let n = max(0, min(size, limit))
    var bytes = [UInt8](repeating: 0, count: n)
    if n > 0 {
      guard bytes.withUnsafeMutableBytes({ sqlite3_blob_read(blob, $0.baseAddress, Int32(n), 0) }) == SQLITE_OK else {
        return nil
      }
    }
    return (bytes, size)
  }

  /// Runs one statement and returns its rows mapped by `map`.
  func rows<T>(_ sql: String, _ values: [SQLValue] = [], _ map: (Row) throws -> T) throws -> [T] {
    var out: [T] = []
    try query(sql, values) { out.append(try map($0)) }
    return out
  }

  /// The first column of the first row, as an integer.
  func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> Int? {
    var out: Int?
    try query(sql, values) { r in if out == nil { out = r.int(0) } }
    return out
  }

  /// The first column of the first row, as text.
  func text(_ sql: String, _ values: [SQLValue] = []) throws -> String? {
    var out: String?
    try query(sql, values) { r in if out == nil { out = r.text(0) } }
    return out
  }

  /// Rows changed by the last statement.
  var changes: Int { Int(sqlite3_changes(db)) }

  /// Runs `body` in an immediate transaction; `durable` commits with synchronous=FULL.
  ///
  /// Inside a group (``beginGroup()``) a bookkeeping transaction is a savepoint of the group,
  /// and a durable one commits the group first, runs on its own, and opens the group again.
  func transaction<T>(durable: Bool, _ body: () throws -> T) throws -> T {
    if groupStarted != nil {
      if durable {
        try commitGroup()
        let result: T
        do {
          result = try transaction(durable: true, body)
        } catch {
          try? beginGroup()
          throw error
        }
        try beginGroup()
        return result
      }
      // Prepared once and kept: a drain opens one per write.
      try query("SAVEPOINT step")
      do {
        let result = try body()
        try query("RELEASE step")
        return result
      } catch {
        try? query("ROLLBACK TO step")
        try? query("RELEASE step")
        throw error
      }
    }
    if durable != synchronousFull {
      try execute(durable ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")
      synchronousFull = durable
    }
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      commits += 1
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// How many transactions (and groups) this connection has committed: each is one sync of the
  /// log, so a batch call can be seen to cost one.
  private(set) var commits = 0

  /// When the open group began, or nil when none is open.
  private(set) var groupStarted: UInt64?

  /// The longest a group stays open before its work is committed, in nanoseconds: 50 ms (times
  /// ``TimeScale``, 1 but in an instruction profile).
  static var groupSpan: UInt64 { 50_000_000 * UInt64(TimeScale.current) }

  /// Opens a group: statements and bookkeeping transactions from now on commit together, at most
  /// ``groupSpan`` apart (docs/architecture.md, "The store's interface": verdict bookkeeping may commit with NORMAL; a verdict lost
  /// with a group is recovered by resending under the same key).
  func beginGroup() throws {
    guard groupStarted == nil, groupFailure == nil else { return }
    if synchronousFull {
      try execute("PRAGMA synchronous=NORMAL")
      synchronousFull = false
    }
    try execute("BEGIN IMMEDIATE")
    groupStarted = DispatchTime.now().uptimeNanoseconds
  }

  /// Why the last group could not be committed: everything since it began was rolled back.
  ///
  /// Kept until ``endGroup()`` takes it, so the work that ran in the group (a drain) learns its
  /// verdicts were lost however the failure was met (the group timer, a durable transaction).
  private(set) var groupFailure: Failure?

  /// Commits the open group, if any; a failed commit rolls the group back and is kept as
  /// ``groupFailure`` as well as thrown.
  func commitGroup() throws {
    guard groupStarted != nil else { return }
    groupStarted = nil
    do {
      try payDrainTally()
      try paySentMarks()
      try execute("COMMIT")
      commits += 1
    } catch let failure as Failure {
      sentMarksOwed = []
      drainTallyOwed = nil
      try? execute("ROLLBACK")
      groupFailure = failure
      throw failure
    }
  }

  /// Ends the grouped work: commits the open group, or throws why an earlier commit of it
  /// failed (its work was rolled back), and forgets that failure.
  func endGroup() throws {
    if let failure = groupFailure {
      groupFailure = nil
      if groupStarted != nil {
        groupStarted = nil
        sentMarksOwed = []
        drainTallyOwed = nil
        try? execute("ROLLBACK")
      }
      throw failure
    }
    try commitGroup()
    drainTallyOwed = nil
  }

  /// Commits the open group and opens another once it has been open for ``groupSpan``, so other
  /// processes see the drain's progress at least that often.
  func commitGroupIfDue() throws {
    guard let started = groupStarted, DispatchTime.now().uptimeNanoseconds - started >= SQLite.groupSpan else { return }
    try commitGroup()
    try beginGroup()
  }

  /// The statement for `sql`, prepared once and kept.
  ///
  /// Found first by where the text's bytes are: the same text (a literal, a `static let`) comes back
  /// from the same storage on every call, and hashing a number costs nothing where hashing the text
  /// hashed each of its few hundred bytes (~10k instructions a drained write). A text made anew
  /// for each call is found by its bytes, as before.
  func prepared(_ sql: String) throws -> SQLStatement {
    let address = Self.storageAddress(of: sql)
    if let address, let s = statementsByAddress[address] { return s }
    if let s = statements[sql] { return s }
    var stmt: OpaquePointer?
    let rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
    guard rc == SQLITE_OK, let stmt else { throw failure(rc) }
    let statement = SQLStatement(handle: stmt)
    statements[sql] = statement
    // Only the text this statement was first prepared from: `statements` keeps it, and with it its
    // address, for as long as the statement is kept.
    if let address { statementsByAddress[address] = statement }
    return statement
  }

  /// Where a text's UTF-8 bytes are stored, when that storage outlives the call: a text of more
  /// than 15 bytes (a shorter one is kept inside the value and read through a copy on the stack).
  static func storageAddress(of text: String) -> UInt? {
    guard text.utf8.count > 15 else { return nil }
    return text.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? nil
  }

  /// One result row. A table's columns are read by name (``columns(_:)``); by index only the
  /// computed columns of a short read (`SELECT count(*)`, the first column of ``scalar(_:_:)``).
  struct Row {
    let stmt: OpaquePointer
    let statement: SQLStatement
    /// The row read by the names of `C`'s columns (their positions resolved once per statement).
    func columns<C: SQLColumn>(_: C.Type) -> ColumnRow<C> {
      ColumnRow(stmt: stmt, positions: statement.positions(of: C.self))
    }
    func isNull(_ i: Int32) -> Bool { sqlite3_column_type(stmt, i) == SQLITE_NULL }
    func int(_ i: Int32) -> Int? { isNull(i) ? nil : Int(sqlite3_column_int64(stmt, i)) }
    func text(_ i: Int32) -> String? {
      guard !isNull(i), let p = sqlite3_column_text(stmt, i) else { return nil }
      // By byte count, not up to the first NUL.
      let count = Int(sqlite3_column_bytes(stmt, i))
      return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }
  }
}

/// A value bound to a statement.
enum SQLValue {
  case null
  case int(Int)
  case text(String)

  static func of(_ s: String?) -> SQLValue { s.map(SQLValue.text) ?? .null }
  static func of(_ n: Int?) -> SQLValue { n.map(SQLValue.int) ?? .null }
}
