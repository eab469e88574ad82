import Foundation
import Testing

@testable import VerdictsCommand

/// Every environment variable the program reads (`getenv`, `environment["…"]`, `env("…")` in
/// Sources, the bench aside) is in the man page's table (``ManualTable``) and in docs/cli.md.
@Suite struct EnvironmentVariableDocsTests {
  /// The names the sources read, found by their reads.
  static func read() throws -> Set<String> {
    let sources = Binary.packageRoot.appendingPathComponent("Sources")
    let pattern = try Regex(#"(?:getenv\(|environment\[|env\[|env\()"([A-Z_][A-Z0-9_]+)""#)
    let constant = try Regex(#"static let [a-zA-Z]+ = "(VERDICTS_[A-Z0-9_]+)""#)
    var names = Set<String>()
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    for file in files where file.hasSuffix(".swift") && !file.hasPrefix("verdicts-bench") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for m in text.matches(of: pattern) { names.insert(String(m.output[1].substring ?? "")) }
      if file.hasSuffix("ProcessEnvironment.swift") {
        for m in text.matches(of: constant) { names.insert(String(m.output[1].substring ?? "")) }
      }
    }
    return names
  }

  @Test func everyVariableReadIsInTheManualTableAndCliMd() throws {
    let names = try Self.read()
    #expect(names.contains("MARFA_DB") && names.contains("TMUX"), "the scan found \(names.sorted())")
    let table = ManualTable.environment.map(\.term).joined(separator: ", ")
    let cli = try String(contentsOf: Binary.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
    let notInTable = names.filter { !table.contains($0) }.sorted()
    let notInCli = names.filter { !cli.contains("`\($0)`") }.sorted()
    #expect(notInTable.isEmpty, "ManualTable.environment lacks \(notInTable)")
    #expect(notInCli.isEmpty, "docs/cli.md lacks \(notInCli)")
  }
}
