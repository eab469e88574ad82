/// What an option's value must be; checked while parsing, before anything is opened.
enum ValueKind: Sendable, Hashable {
  /// A flag: takes no value.
  case flag
  /// Any text that is not empty.
  case text
  /// One segment of a request path (an id, a tag, a namespace): not empty, not `.` or `..`,
  /// which a server would read as a step in the path and send the write to another door.
  case segment
  /// A whole number within the range.
  case integer(ClosedRange<Int>)
  /// A JSON object (the parser keeps member order).
  case jsonObject
  /// One of a closed set of words.
  case choice([String])

  /// Whether the option takes a value.
  var takesValue: Bool { self != .flag }
}
