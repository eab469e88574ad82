import MarfaWire

/// The instance reads and writes JSON through the project's one reader and writer (`MarfaWire`);
/// a `ScriptedJSON` is only the model's shape of a value (objects keyed, written with sorted keys).
extension ScriptedJSON {
  /// Reads one JSON value from UTF-8 text (surrounding whitespace allowed).
  public init(parsing text: String) throws(JSONParseError) {
    self.init(try JSONValue(parsing: text))
  }

  /// Reads one JSON value from UTF-8 bytes (surrounding whitespace allowed).
  public init(parsing bytes: [UInt8]) throws(JSONParseError) {
    self.init(try JSONValue(parsing: bytes))
  }

  /// The model's shape of a wire value (a name given twice keeps its last value).
  public init(_ value: JSONValue) {
    switch value {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .number(let n): self = .number(n.doubleValue)
    case .string(let s): self = .string(s)
    case .array(let items): self = .array(items.map(ScriptedJSON.init))
    case .object(let members):
      self = .object(Dictionary(members.map { ($0.0, ScriptedJSON($0.1)) }, uniquingKeysWith: { _, last in last }))
    }
  }

  /// The wire value of this one, object members in sorted order.
  package var wireValue: JSONValue {
    switch self {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .number(let n): return .double(n)
    case .string(let s): return .string(s)
    case .array(let items): return .array(items.map(\.wireValue))
    case .object(let o): return .object(o.keys.sorted().map { ($0, o[$0]!.wireValue) })
    }
  }

  /// The compact JSON text of this value, object keys sorted.
  public var text: String { wireValue.text }

  /// The compact JSON text of this value as UTF-8 bytes.
  var bytes: [UInt8] { Array(text.utf8) }
}
