import FoundationEssentials
import MarfaQueue
import MarfaWire

/// One row of a ``RemoteValue/summaryRows(pane:offset:total:rows:)`` answer: a write the screen
/// holds unchanged, by its place in the call's `known` (a JSON number), or a write's summary (a
/// JSON object).
///
/// A summary is what a pane's row needs: the write without its body, its answer and its
/// idempotency key (the detail reads its write whole), and without any member whose value is
/// the one an empty write has (`"refusals":0`, `"sent":false`, `"dependsOn":[]` …), which the
/// reading side puts back. Both sides take a write's digest (``RemoteWire/digest(_:)``) of the
/// summary as it reads: the screen sends it back as what it holds, and nothing of it crosses
/// with the row.
package enum SummaryRow: Codable, Sendable, Equatable {
  /// A write the screen holds as it is: the place of its ``KnownRow`` in the call.
  case same(Int)
  /// A write the screen does not hold, or holds changed, as its summary.
  case write(QueuedWrite)

  /// The summary of `whole`: what its row on the screen is made from.
  package static func summary(_ whole: QueuedWrite) -> QueuedWrite {
    var w = whole
    w.body = .null
    w.answer = nil
    w.idempotencyKey = ""
    return w
  }

  package init(from decoder: any Decoder) throws {
    let one = try decoder.singleValueContainer()
    if let place = try? one.decode(Int.self) {
      self = .same(place)
      return
    }
    guard case .object(let members) = try one.decode(JSONTree.self).value else {
      throw DecodingError.dataCorruptedError(in: one, debugDescription: "a row is an id or an object")
    }
    let present = Set(members.map(\.0))
    let whole = JSONValue.object(members + Self.emptyMembers.filter { !present.contains($0.0) })
    self = .write(try JSONDecoder().decode(QueuedWrite.self, from: Data(whole.text.utf8)))
  }

  package func encode(to encoder: any Encoder) throws {
    var one = encoder.singleValueContainer()
    switch self {
    case .same(let place):
      try one.encode(place)
    case .write(let w):
      guard case .object(let members) = JSONValue.parse(try JSONEncoder().encode(w)) else {
        throw EncodingError.invalidValue(w, .init(codingPath: encoder.codingPath, debugDescription: "not an object"))
      }
      try one.encode(JSONTree(.object(members.filter { Self.emptyValues[$0.0] != $0.1 })))
    }
  }

  /// The members of an empty write, as its JSON has them: a member of a summary equal to one
  /// of these is left out, and put back when the row is read.
  private static let emptyMembers: [(String, JSONValue)] = {
    let empty = QueuedWrite(id: "", kind: .createItem, idempotencyKey: "", body: .null, queuedAt: "")
    guard let data = try? JSONEncoder().encode(empty), case .object(let members) = JSONValue.parse(data) else {
      return []
    }
    return members
  }()

  /// ``emptyMembers`` by name, read once.
  private static let emptyValues = Dictionary(emptyMembers, uniquingKeysWith: { a, _ in a })
}

/// A JSON value written as itself (an object as an object), where ``JSONValue``'s own `Codable`
/// writes its text in one string.
struct JSONTree: Codable {
  var value: JSONValue

  init(_ value: JSONValue) { self.value = value }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    if let keyed = try? decoder.container(keyedBy: Key.self) {
      value = .object(try keyed.allKeys.map { ($0.stringValue, try keyed.decode(JSONTree.self, forKey: $0).value) })
    } else if var list = try? decoder.unkeyedContainer() {
      var items: [JSONValue] = []
      while !list.isAtEnd { items.append(try list.decode(JSONTree.self).value) }
      value = .array(items)
    } else {
      let one = try decoder.singleValueContainer()
      if one.decodeNil() {
        value = .null
      } else if let b = try? one.decode(Bool.self) {
        value = .bool(b)
      } else if let i = try? one.decode(Int.self) {
        value = .int(i)
      } else if let d = try? one.decode(Double.self) {
        value = .double(d)
      } else {
        value = .string(try one.decode(String.self))
      }
    }
  }

  func encode(to encoder: any Encoder) throws {
    switch value {
    case .object(let members):
      var keyed = encoder.container(keyedBy: Key.self)
      for (k, v) in members { try keyed.encode(JSONTree(v), forKey: Key(stringValue: k)) }
    case .array(let items):
      var list = encoder.unkeyedContainer()
      for v in items { try list.encode(JSONTree(v)) }
    case .null:
      var one = encoder.singleValueContainer()
      try one.encodeNil()
    case .bool(let b):
      var one = encoder.singleValueContainer()
      try one.encode(b)
    case .number(let n):
      var one = encoder.singleValueContainer()
      if let i = n.intValue { try one.encode(i) } else { try one.encode(n.doubleValue) }
    case .string(let s):
      var one = encoder.singleValueContainer()
      try one.encode(s)
    }
  }
}
