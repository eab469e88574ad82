import FoundationEssentials

/// A departed write as JSON (`verdicts departed --json`, `show --json`, `report --json`).
extension DepartedWrite {
  /// The write's wire JSON (every field of ``QueuedWrite/wireJSON``) with `departed`: the
  /// event, when (`at`, RFC 3339, and `at_ms`), who (`by`: program, mode, pid, host) and the
  /// bytes the archive holds for it, and whether an undo may put it back (`undoable`).
  public var wireJSON: JSONValue {
    func str(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
    let ms = Int((departedAt.timeIntervalSince1970 * 1000).rounded(.down))
    return write.wireJSON.setting(
      "departed",
      .object([
        ("event", .string(departure.rawValue)),
        ("at", .string(Timestamp.text(departedAt))),
        ("at_ms", .int(ms)),
        (
          "by",
          .object([
            ("program", str(program)), ("mode", str(mode)), ("pid", pid.map { .int($0) } ?? .null),
            ("host", str(host)),
          ])
        ),
        ("bytes", .int(bytes)),
        ("undoable", .bool(departure != .withdrawn)),
      ]))
  }
}
