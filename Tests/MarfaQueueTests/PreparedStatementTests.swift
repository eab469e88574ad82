import Foundation
import Testing

@testable import MarfaQueue

/// A connection's statements are prepared once and found again by where their text is stored,
/// else by the text itself; either way the same text finds the same statement, and another text
/// never finds it.
@Suite struct PreparedStatementTests {
  static let longText = "SELECT count(*) FROM sqlite_master WHERE type = 'table'"

  func withConnection<T>(_ body: (SQLite) throws -> T) throws -> T {
    let db = try SQLite(path: ":memory:", readOnly: false)
    defer { db.close() }
    return try body(db)
  }

  @Test func aTextKeptInOnePlaceIsFoundByItsAddressEveryTime() throws {
    let first = SQLite.storageAddress(of: Self.longText)
    #expect(first != nil)
    #expect(SQLite.storageAddress(of: Self.longText) == first)
    try withConnection { db in
      let first = try db.prepared(Self.longText)
      #expect(try db.prepared(Self.longText) === first)
    }
  }

  @Test func theSameTextMadeAnewFindsTheStatementPreparedFromTheFirst() throws {
    try withConnection { db in
      let kept = try db.prepared(Self.longText)
      let made = String(decoding: Array(Self.longText.utf8), as: UTF8.self)
      #expect(SQLite.storageAddress(of: made) != SQLite.storageAddress(of: Self.longText))
      #expect(try db.prepared(made) === kept)
    }
  }

  @Test func anotherTextNeverFindsAnotherTextsStatement() throws {
    try withConnection { db in
      var seen: [ObjectIdentifier: String] = [:]
      // Texts made and dropped one after another, so a freed text's storage can come back.
      for i in 0..<200 {
        let text = "SELECT \(i % 20) + 0 AS value_of_the_statement"
        let statement = try db.prepared(text)
        if let earlier = seen[ObjectIdentifier(statement)] { #expect(earlier == text) }
        seen[ObjectIdentifier(statement)] = text
        #expect(try db.scalar(text) == i % 20)
      }
      #expect(seen.count == 20)
    }
  }

  @Test func aShortTextIsFoundByItsBytes() throws {
    #expect(SQLite.storageAddress(of: "SELECT 1") == nil)
    try withConnection { db in
      let first = try db.prepared("SELECT 1")
      #expect(try db.prepared("SELECT 1") === first)
    }
  }
}
