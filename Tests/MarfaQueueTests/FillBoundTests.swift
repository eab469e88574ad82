import CSQLite
import Foundation
import ScriptedInstance
import TestSupport
import Testing

@testable import MarfaQueue

/// A fill against item pages that never end: a cursor given again ends it at
/// once, every fill has a ceiling of pages and rows, the rows go into the store page by page,
/// and a fill that stops says how far it got and leaves the copy's rows as they were.
@Suite struct FillBoundTests {
  static let timeout = 5.0

  /// One page of `GET /items`: the ids of its items and its `next_cursor` (nil: the last page).
  struct Page: Sendable {
    var ids: [String]
    var next: String?
  }

  /// A raw instance whose item pages `pages` writes: given the page's number (from 0) and the
  /// cursor the request carried. It answers `GET /` as the scripted instance and `/events` with
  /// a `stream_cursor` frame (and `stream_live` on a replay); it counts the page requests.
  final class PagedServer: Sendable {
    let server: RawServer
    let pages: SharedValue<@Sendable (Int, String?) -> Page>
    let pageRequests: SharedValue<Int>
    let cursorsAsked: SharedValue<[String?]>

    init(_ pages: @escaping @Sendable (Int, String?) -> Page) throws {
      let script = SharedValue<@Sendable (Int, String?) -> Page>(pages)
      let count = SharedValue(0)
      let cursors = SharedValue<[String?]>([])
      self.pages = script
      pageRequests = count
      cursorsAsked = cursors
      server = try RawServer { peer in
        while let head = peer.readHead() {
          if RawServerCopy.answersRoot(peer, head) { continue }
          if head.path.hasPrefix("/events") {
            let frame =
              #"{"event_type":"stream_cursor","cursor":"c-head","instance_id":"\#(Scenario.defaultInstanceId)"}"#
            // The replay a fill ends with (it names the head) is live at once: nothing was written.
            let live =
              head.headers["last-event-id"] != nil
              ? "event: stream_live\ndata: {\"event_type\":\"stream_live\",\"cursor\":\"c-head\"}\n\n" : ""
            peer.write(
              "HTTP/1.1 200 OK\r\n\(RawServerCopy.contract)\r\nContent-Type: text/event-stream\r\n\r\nevent: stream_cursor\ndata: \(frame)\n\n\(live)"
            )
            return
          }
          guard head.path.hasPrefix("/items") else {
            peer.answer(501, headers: [RawServerCopy.contract], body: "{}")
            continue
          }
          let cursor = URLComponents(string: head.path)?.queryItems?.first { $0.name == "cursor" }?.value
          var number = 0
          count.update {
            number = $0
            $0 += 1
          }
          cursors.update { $0.append(cursor) }
          let page = script.value(number, cursor)
          let data = page.ids.map {
            #"{"item":{"id":"\#($0)","type":"note","version":1,"state":"active","properties":{"title":"page \#(number)"}},"metadata":{"item_id":"\#($0)","tags":[],"extensions":{}}}"#
          }
          let next = page.next.map { #""\#($0)""# } ?? "null"
          let body = #"{"data":[\#(data.joined(separator: ","))],"next_cursor":\#(next)}"#
          if !peer.answer(200, headers: [RawServerCopy.contract, "Content-Type: application/json"], body: body) {
            return
          }
        }
      }
    }

    deinit { server.stop() }

    var url: String { server.url.absoluteString }
  }

  /// A copy filled from `server` with two pages of rows (`a1`, `a2`, `b1`), and one create queued.
  static func filledCopy(_ server: PagedServer, store: TestStore) async throws -> WorkingCopy {
    server.pages.update {
      $0 = { n, _ in n == 0 ? Page(ids: ["a1", "a2"], next: "p2") : Page(ids: ["b1"], next: nil) }
    }
    let copy = try await store.open(server: Server(url: server.url, key: "k1", timeout: timeout))
    try await copy.fill()
    _ = try await copy.createItem(type: "note", properties: .object([("title", .string("mine"))]), id: "mine")
    return copy
  }

  /// The rows a fill has staged in the store file, read on a connection of its own (-1: unreadable).
  static func stagedRows(_ path: String) -> Int {
    var db: OpaquePointer?
    var statement: OpaquePointer?
    defer {
      sqlite3_finalize(statement)
      sqlite3_close(db)
    }
    _ = SQLite.configured
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
      sqlite3_prepare_v2(db, "SELECT count(*) FROM rows WHERE kind = 'filling'", -1, &statement, nil) == SQLITE_OK,
      sqlite3_step(statement) == SQLITE_ROW
    else { return -1 }
    return Int(sqlite3_column_int64(statement, 0))
  }

  /// Every row the store holds, as `kind:id`.
  static func rows(_ copy: WorkingCopy) async throws -> [String] {
    try await copy.store.run { try $0.ids("SELECT kind || ':' || id AS id FROM rows ORDER BY kind, id") }
  }

  /// The fill's error, which must be a broken contract; its words.
  static func brokenContract(_ body: () async throws -> Void) async -> String? {
    do {
      try await body()
      Issue.record("the fill did not stop")
      return nil
    } catch QueueError.contractBroken(let what) {
      return what
    } catch {
      Issue.record("not a broken contract: \(error)")
      return nil
    }
  }

  @Test func aCursorGivenAgainEndsTheFillAtOnceNamingItAndKeepsTheCopysRows() async throws {
    let server = try PagedServer { _, _ in Page(ids: [], next: nil) }
    let store = TestStore()
    let copy = try await Self.filledCopy(server, store: store)
    defer { copy.close() }
    let before = try await Self.rows(copy)
    #expect(before == ["item:a1", "item:a2", "item:b1", "item:mine"])
    server.pageRequests.update { $0 = 0 }
    server.pages.update { $0 = { n, _ in Page(ids: ["s\(n)"], next: "same") } }

    let what = await Self.brokenContract { try await copy.fill() }
    #expect(server.pageRequests.value == 2, "\(server.pageRequests.value) page requests")
    #expect(what?.contains("gave the cursor 'same' again") == true, "\(what ?? "")")
    #expect(what?.contains("after 2 page(s) and 2 row(s), the last cursor 'same'") == true, "\(what ?? "")")
    #expect(try await Self.rows(copy) == before, "the copy's rows changed, or staged rows were left")
    #expect(try await copy.status().fill == .underway)
    #expect(QueueError.contractBroken(what: what ?? "").code == "contract_mismatch")
  }

  @Test func cursorsThatAlternateEndTheFillOnTheThirdPage() async throws {
    let server = try PagedServer { _, _ in Page(ids: [], next: nil) }
    let store = TestStore()
    let copy = try await Self.filledCopy(server, store: store)
    defer { copy.close() }
    server.pageRequests.update { $0 = 0 }
    server.cursorsAsked.update { $0 = [] }
    server.pages.update { $0 = { n, _ in Page(ids: ["x\(n)"], next: n % 2 == 0 ? "a" : "b") } }

    let what = await Self.brokenContract { try await copy.fill() }
    #expect(server.cursorsAsked.value == [nil, "a", "b"])
    #expect(what?.contains("gave the cursor 'a' again") == true, "\(what ?? "")")
    #expect(what?.contains("after 3 page(s) and 3 row(s), the last cursor 'b'") == true, "\(what ?? "")")
  }

  @Test func endlessNewCursorsStopAtThePageCeilingHoldingNoPageButTheOneRead() async throws {
    let server = try PagedServer { _, _ in Page(ids: [], next: nil) }
    let store = TestStore()
    let copy = try await Self.filledCopy(server, store: store)
    defer { copy.close() }
    let before = try await Self.rows(copy)
    server.pageRequests.update { $0 = 0 }
    server.pages.update { $0 = { n, _ in Page(ids: (0..<20).map { "n\(n)-\($0)" }, next: "c\(n)") } }
    // The rows staged as the fill goes: each page's rows are in the store before the next page
    // is asked for, so at no time does the fill hold more than one page.
    let staged = SharedValue<[Int]>([])
    let path = store.url.path
    server.pages.update { current in
      let pages = current
      current = { n, cursor in
        if n > 0 { staged.update { $0.append(Self.stagedRows(path)) } }
        return pages(n, cursor)
      }
    }

    let what = await Self.brokenContract { try await copy.fill(limits: FillLimits(pages: 30, rows: 10_000)) }
    #expect(server.pageRequests.value == 30)
    #expect(what?.contains("went on past 30 pages") == true, "\(what ?? "")")
    #expect(what?.contains("after 30 page(s) and 600 row(s), the last cursor 'c28'") == true, "\(what ?? "")")
    #expect(staged.value == (1..<30).map { $0 * 20 }, "rows staged before each page: \(staged.value)")
    #expect(try await Self.rows(copy) == before)
  }

  @Test func rowsPastTheRowCeilingStopTheFillBeforeTheyAreTaken() async throws {
    let server = try PagedServer { _, _ in Page(ids: [], next: nil) }
    let store = TestStore()
    let copy = try await Self.filledCopy(server, store: store)
    defer { copy.close() }
    server.pages.update { $0 = { n, _ in Page(ids: (0..<40).map { "r\(n)-\($0)" }, next: "c\(n)") } }
    let what = await Self.brokenContract { try await copy.fill(limits: FillLimits(pages: 1000, rows: 100)) }
    #expect(what?.contains("held more than 100 rows") == true, "\(what ?? "")")
    #expect(what?.contains("after 2 page(s) and 80 row(s)") == true, "\(what ?? "")")
  }

  @Test func theNextFillAfterOneThatStoppedRedoesItWholeAndCompletes() async throws {
    let server = try PagedServer { _, _ in Page(ids: [], next: nil) }
    let store = TestStore()
    let copy = try await Self.filledCopy(server, store: store)
    defer { copy.close() }
    server.pages.update { $0 = { n, _ in Page(ids: ["z\(n)"], next: "same") } }
    _ = await Self.brokenContract { try await copy.fill() }
    #expect(try await copy.status().fill == .underway)
    // Rows staged by a fill that was killed before it could drop them are dropped by the next.
    try await copy.store.run { db in
      try db.putRow(
        kind: SQLite.stagedFillKind, id: "left-behind", version: 1, body: .object([("id", .string("left-behind"))]))
    }
    server.pageRequests.update { $0 = 0 }
    server.pages.update {
      $0 = { n, _ in n == 0 ? Page(ids: ["c1", "c2"], next: "next") : Page(ids: ["c3"], next: nil) }
    }
    try await copy.fill()
    #expect(try await copy.status().fill == .complete)
    let after = try await Self.rows(copy)
    #expect(after == ["item:c1", "item:c2", "item:c3", "item:mine"], "\(after)")
  }

  @Test func theStandardCeilingsAreTheOnesTheProtocolPageStates() {
    let limits = FillLimits.standard
    #expect(limits.pages == 20_000)
    #expect(limits.rows == 1_000_000)
    #expect(limits.bytes == 1 << 30)
    #expect(limits.cursorBytes == 4096)
  }
}
