import FoundationEssentials
import MarfaQueue

/// The departed writes as text (`verdicts departed`, `show` of a departed write, the report).
enum DepartedText {
  /// One line a write: when it left, why, by whom, its id, kind, row and verdict.
  static func table(_ departed: [DepartedWrite], ascii: Bool) -> String {
    let rows = departed.map { d -> [String] in
      let w = d.write
      return [
        Timestamp.text(d.departedAt), d.departure.rawValue, Sanitizer.clean(w.id, ascii: ascii), w.kind.wireName,
        Sanitizer.clean(w.itemId ?? w.edgeId ?? w.blob ?? "", ascii: ascii), w.verdict?.wireName ?? "none",
        d.departure == .withdrawn ? "no" : "yes", Sanitizer.clean(d.byText, ascii: ascii),
      ]
    }
    var table = TextTable(headers: ["left at", "event", "id", "kind", "row", "verdict", "undo", "by"], rows: rows)
    table.ascii = ascii
    return table.render()
  }

  /// What `show` says first of a departed write: that it left, when, why, by whom, and whether
  /// an undo may put it back.
  static func header(_ d: DepartedWrite, ascii: Bool) -> String {
    let undo =
      d.departure == .withdrawn
      ? "a withdrawn write cannot be put back (its row was reset and the writes waiting on it refused); "
        + "its content is below"
      : "verdicts undo \(d.write.id) puts it back"
    return Sanitizer.clean(
      "left the queue: \(d.departure.rawValue) at \(Timestamp.text(d.departedAt)) by \(d.byText); \(undo)",
      ascii: ascii)
  }
}
