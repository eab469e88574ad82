import Foundation
import Testing

@testable import VerdictsCommand

/// The man page, docs/verdicts.1: made from the command table and ManualTable, checked in as made,
/// naming every command, option, variable, file and exit status, in roff that groff reads cleanly.
@Suite struct ManPageTests {
  static let page = ManPage.render()
  static let docs = Binary.packageRoot.appendingPathComponent("docs")

  /// The page's lines from the heading `.SS "<name>"` to the next heading.
  static func section(_ name: String, in page: String = page) -> String? {
    let heading = ".SS \"" + Roff.code(name) + "\"\n"
    guard let start = page.range(of: heading) else { return nil }
    let rest = page[start.upperBound...]
    let end = rest.range(of: "\n.S")?.lowerBound ?? rest.endIndex
    return String(rest[..<end])
  }

  /// The rows of the markdown table under `heading` in docs/cli.md: the cells of each row.
  static func cliTable(under heading: String) throws -> [[String]] {
    let text = try String(contentsOf: docs.appendingPathComponent("cli.md"), encoding: .utf8)
    let lines = text.components(separatedBy: "\n")
    let start = try #require(lines.firstIndex(of: heading), "docs/cli.md has no \(heading)")
    let table = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
    return table.dropFirst(2).map { row in
      row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map {
        $0.trimmingCharacters(in: .whitespaces)
      }
    }
  }

  /// The names in backticks in a cell: `` `MARFA_DB` `` → `MARFA_DB`.
  static func quoted(_ cell: String) -> [String] {
    cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
      .map { String($0.element) }
  }

  /// A cell's items: split at the commas outside parentheses.
  static func items(_ cell: String) -> [String] {
    var items = [""]
    var depth = 0
    for ch in cell {
      if ch == "(" { depth += 1 }
      if ch == ")" { depth -= 1 }
      if ch == ",", depth == 0 { items.append("") } else { items[items.count - 1].append(ch) }
    }
    return items.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
  }

  @Test func theCheckedInManPageIsWhatTheGeneratorPrintsNow() throws {
    let url = Self.docs.appendingPathComponent("verdicts.1")
    let checkedIn = try? String(contentsOf: url, encoding: .utf8)
    #expect(
      checkedIn == Self.page,
      "docs/verdicts.1 is stale (the command table or ManualTable changed); regenerate it: \(ManPage.regenerate)")
  }

  @Test func theHiddenManCommandPrintsThePage() async {
    let r = await runInProcess(["__man"])
    #expect(r.code == 0, "\(r)")
    #expect(r.stdout == Self.page)
  }

  @Test func everyCommandAppearsWithItsSynopsisSummaryArgumentsAndOptions() throws {
    let visible = ManPage.visibleCommands(CommandTable.root)
    #expect(visible.count > 30)
    for (path, spec) in visible {
      let name = (["verdicts"] + path).joined(separator: " ")
      let section = try #require(Self.section(name), "no section for \(name)")
      #expect(section.contains(ManPage.synopsis(path: path, spec: spec)), "\(name): no synopsis")
      #expect(section.contains(Roff.text(spec.summary)), "\(name): no summary")
      for positional in spec.positionals {
        #expect(section.contains(Roff.italic(Roff.code(positional.name))), "\(name) lacks \(positional.name)")
      }
      for option in spec.options {
        #expect(section.contains(".TP\n" + Roff.bold(Roff.code(option.name))), "\(name) lacks \(option.name)")
      }
      for sub in spec.subcommands where !sub.hidden {
        #expect(Self.section(name + " " + sub.name) != nil, "\(name) \(sub.name)")
      }
    }
  }

  @Test func noHiddenCommandHasASection() {
    for sub in CommandTable.root.subcommands where sub.hidden {
      #expect(Self.section("verdicts " + sub.name) == nil, "\(sub.name)")
      #expect(!Self.page.contains(Roff.code(sub.name) + "\""), "\(sub.name)")
    }
  }

  @Test func everyGlobalOptionIsListed() throws {
    let start = try #require(Self.page.range(of: ".SH GLOBAL OPTIONS\n"))
    let end = try #require(Self.page.range(of: ".SH ENVIRONMENT\n"))
    let globals = String(Self.page[start.upperBound..<end.lowerBound])
    for option in CommandTable.globals {
      #expect(globals.contains(".TP\n" + Roff.bold(Roff.code(option.name))), "\(option.name)")
    }
    #expect(globals.contains(Roff.bold("\\-\\-help")) && globals.contains(Roff.bold("\\-\\-version")))
  }

  @Test func everyVariableFileAndExitStatusOfTheTableIsOnThePage() {
    for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "GLOBAL OPTIONS", "ENVIRONMENT", "FILES"]
      + ["EXIT STATUS", "EXAMPLES", "SEE ALSO"]
    {
      #expect(Self.page.contains("\n.SH \(heading)\n"), "\(heading)")
    }
    for entry in ManualTable.environment + ManualTable.files {
      #expect(Self.page.contains(".TP\n") && Self.page.contains(Roff.code(entry.term)), "\(entry.term)")
    }
    #expect(ManualTable.exitStatus.map(\.code) == ExitCode.allCases, "an exit code has no entry")
    for entry in ManualTable.exitStatus {
      #expect(Self.page.contains(".TP\n" + Roff.bold(String(entry.code.rawValue)) + "\n"), "\(entry.code)")
      for code in entry.errorCodes { #expect(Self.page.contains(Roff.bold(Roff.code(code))), "\(code)") }
    }
  }

  @Test func everyVariableAndCodeDocsCliMdListsIsInTheTable() throws {
    let variables = try Self.cliTable(under: "## Environment variables").flatMap { Self.quoted($0[0]) }
    #expect(variables.count >= 7)
    for name in variables {
      #expect(ManualTable.environment.contains { $0.term.contains(name) }, "\(name) is not in ManualTable")
    }
    let failures = try Self.cliTable(under: "## Failures")
    #expect(failures.count == ExitCode.allCases.count)
    for row in failures {
      let status = try #require(Int32(row[0]).flatMap(ExitCode.init(rawValue:)), "exit \(row[0])")
      let entry = try #require(ManualTable.exitStatus.first { $0.code == status })
      // The codes: the first backticked word of each item (`usage` (bad …), `no_store`, …).
      let codes = Self.items(row[2]).compactMap { Self.quoted($0).first }
      #expect(entry.errorCodes == codes, "exit \(row[0]): ManualTable and docs/cli.md list other codes")
    }
  }

  @Test func theExamplesComeFromTheCommandsHelp() {
    for path in ManPage.examplePaths {
      for line in HelpExamples.byPath[path] ?? [] {
        #expect(Self.page.contains("\n" + Roff.code(line) + "\n"), "\(line)")
      }
    }
  }

  @Test func roffSpecialsAreEscaped() {
    #expect(Roff.text(".starts a request") == "\\&.starts a request")
    #expect(Roff.text("'also") == "\\&'also")
    #expect(Roff.text("a\n.b") == "a\n\\&.b")
    #expect(Roff.text("a \\ b") == "a \\e b")
    #expect(
      Roff.text("use --key-file or -h, (--json) not read-only")
        == "use \\-\\-key\\-file or \\-h, (\\-\\-json) not read-only")
    #expect(Roff.text("…43da8578 → x") == "\\[u2026]43da8578 \\[u2192] x")
    #expect(Roff.text("run `verdicts catch-up` now") == "run \\fBverdicts catch\\-up\\fR now")
    #expect(Roff.code("verdicts take-answered --json") == "verdicts take\\-answered \\-\\-json")
    #expect(!Self.page.contains("\n.\n"), "a line that is only a dot")
    for line in Self.page.split(separator: "\n") where !line.hasPrefix(".") {
      #expect(!line.hasPrefix("'"), "\(line)")
      #expect(line.unicodeScalars.allSatisfy { $0.value < 0x80 }, "not ASCII: \(line)")
    }
  }
}
