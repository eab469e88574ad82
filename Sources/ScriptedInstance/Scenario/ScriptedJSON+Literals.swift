extension ScriptedJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  /// A JSON string.
  public init(stringLiteral value: String) { self = .string(value) }
  /// A JSON number.
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  /// A JSON number.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// A JSON Boolean.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// A JSON array.
  public init(arrayLiteral elements: ScriptedJSON...) { self = .array(elements) }
  /// A JSON object; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, ScriptedJSON)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
  /// JSON `null`.
  public init(nilLiteral: ()) { self = .null }
}
