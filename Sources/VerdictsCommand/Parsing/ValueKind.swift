/// What an option's value must be; checked while parsing, before anything is opened.
enum ValueKind: Sendable, Hashable {
  /// A flag: takes no value.
  case flag
  /// Any text that is not empty.
  case text
  /// A whole number within the range.
  case integer(ClosedRange<Int>)
  /// A JSON object (the parser keeps member order).
  case jsonObject
  /// One of a closed set of words.
  case choice([String])

  /// Whether the option takes a value.
  var takesValue: Bool { self != .flag }
}
