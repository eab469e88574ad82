import FoundationEssentials

extension WriteAttempt {
  /// The attempt as `show --json` and `queue --json` carry it.
  public var wireJSON: JSONValue {
    .object([
      ("at", .string(Timestamp.text(at))),
      ("drain", Wire.int(drain)),
      ("result", .string(result.rawValue)),
      ("status", Wire.int(status)),
      ("code", Wire.str(code)),
      ("replayed", .bool(replayed)),
      ("milliseconds", .int(milliseconds)),
      ("text", Wire.str(text)),
    ])
  }
}

extension WriteAttempts {
  /// The members a write's JSON gains: `attempts` (newest first) and `attempts_omitted`.
  public var wireMembers: [(String, JSONValue)] {
    [("attempts", .array(list.map(\.wireJSON))), ("attempts_omitted", .int(omitted))]
  }
}
