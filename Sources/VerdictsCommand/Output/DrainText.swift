import MarfaQueue
import VerdictsUI

/// The `drain` command's text: the counts, why it ended, then a line per listed verdict (the
/// last ``DrainReport/keptVerdicts``; how many earlier ones are not listed).
enum DrainText {
  /// The report in words and an aligned table.
  static func render(_ report: DrainReport, ascii: Bool) -> String {
    let text = WriteText(ascii: ascii)
    // The counts and why the pass ended in the words every view uses (DrainReportText).
    var out = DrainReportText.counts(report, ascii: ascii) + "\n"
    if !report.unclaimedSources.isEmpty {
      out += "unclaimed sources: \(text.visible(report.unclaimedSources.joined(separator: ", ")))\n"
    }
    if !report.verdicts.isEmpty {
      var table = TextTable(headers: ["ID", "KIND", "ROWS", "VERDICT", "REASON", "REFUSALS", "REPLAYED"])
      table.ascii = ascii
      for v in report.verdicts {
        table.rows.append([
          text.visible(v.id), text.visible(v.kindName),
          text.rows(itemId: v.itemId, targetId: nil, edgeId: v.edgeId, namespace: nil, tag: nil, blob: nil),
          v.verdict?.wireName ?? "unanswered", text.reason(v.verdict), v.refusals > 0 ? String(v.refusals) : "",
          v.replayed ? "replayed" : "",
        ])
      }
      out += table.render()
    }
    if report.verdictsOmitted > 0 {
      out += "\(report.verdictsOmitted) earlier verdict(s) not listed (verdicts queue lists every write)\n"
    }
    let refused = report.verdictCounts[VerdictName.refused.rawValue] ?? 0
    if refused > 0 { out += "refused \(refused) write(s)\n" }
    return out
  }
}
