@testable import ScriptedInstance

/// The scripted instance's scenario reader on any text. Oracles: it reads a scenario or refuses
/// with `notJSON` or `invalid` (never another error, never a trap); an `invalid` names a member
/// path that starts where the text's members do; reading the same text twice gives the same
/// scenario.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let first: Scenario
  do {
    first = try Scenario(json: text, source: "fuzz")
  } catch let error as ScenarioError {
    switch error {
    case .notJSON(let source, _): if source != "fuzz" { fatalError("a refusal names another source: \(error)") }
    case .invalid(let source, let at, let message):
      if source != "fuzz" || message.isEmpty { fatalError("a refusal without its source or words: \(error)") }
      if let c = at.unicodeScalars.first, c == "." || c == "[" { fatalError("a member path starts nowhere: \(at)") }
    default: fatalError("a scenario's text refused as a file would be: \(error)")
    }
    return 0
  } catch {
    fatalError("the scenario reader threw something other than a ScenarioError: \(error)")
  }
  guard let again = try? Scenario(json: text, source: "fuzz"), again == first else {
    fatalError("the same text read twice gives two scenarios")
  }
  return 0
}
