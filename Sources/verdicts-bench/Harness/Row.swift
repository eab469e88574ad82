/// One printed figure: what was measured, the figure, and its target with `met`/`MISSED`.
struct Row {
  var name: String
  var figure: String
  /// The target as text (`≤ 100 ms`); nil: a figure without a target.
  var target: String?
  var met: Bool?

  var line: String {
    guard let target, let met else { return "  \(name): \(figure)" }
    return "  \(name): \(figure); target \(target): \(met ? "met" : "MISSED")"
  }

  /// The rows' lines and whether every target among them was met.
  static func outcome(_ rows: [Row], notes: [String] = []) -> BenchOutcome {
    BenchOutcome(lines: notes + rows.map(\.line), metTargets: rows.allSatisfy { $0.met != false })
  }
}
