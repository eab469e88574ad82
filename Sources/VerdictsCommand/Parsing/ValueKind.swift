/// What an option's value must be; checked while parsing, before anything is opened.
enum ValueKind: Sendable, Hashable {
  /// A flag: takes no value.
  case flag
  /// Any text that is not empty.
  case text
  /// One segment of a request path (an id, a tag, a namespace): not empty, not `.` or `..`,
  /// which a server would read as a step in the path and send the write to another endpoint; at
  /// most ``nameLimit`` bytes.
  case segment
  /// A name or an id that is not a path segment (a type, a tag in a body, a source, a MIME
  /// type, a write's id to look up): not empty, at most `maxBytes` bytes of UTF-8.
  case name(maxBytes: Int)
  /// A whole number within the range.
  case integer(ClosedRange<Int>)
  /// A JSON object (the parser keeps member order).
  case jsonObject
  /// One of a closed set of words.
  case choice([String])

  /// Whether the option takes a value.
  var takesValue: Bool { self != .flag }

  /// The most bytes an id, a tag, a type, a namespace, a source, a tier or a MIME type may
  /// have (docs/cli.md): far more than any a person types, and few enough that a table or a
  /// request stays small.
  static let nameLimit = 256
  /// The most bytes a natural key's id within its source (`--source-id`) may have: an id
  /// another system minted, such as a URL or a message id.
  static let sourceIdLimit = 1024

  /// A name or id of at most ``nameLimit`` bytes.
  static let shortName = ValueKind.name(maxBytes: nameLimit)

  /// The most bytes a value of this kind may have, when it has a limit.
  var maxBytes: Int? {
    switch self {
    case .segment: return Self.nameLimit
    case .name(let maxBytes): return maxBytes
    default: return nil
    }
  }
}
