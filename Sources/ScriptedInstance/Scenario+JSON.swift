import MarfaWire
import Foundation

extension Scenario {
  /// Reads a scenario from its JSON text (format: `docs/scripted-instance.md`); `source` names it in errors.
  public init(json text: String, source: String = "text") throws {
    let value: ScriptedJSON
    do {
      value = try ScriptedJSON(parsing: text)
    } catch {
      throw ScenarioError.notJSON(source: source, reason: error.description)
    }
    self = try ScenarioReader(source: source).scenario(value)
  }

  /// Reads a scenario from a JSON file.
  public init(contentsOf file: URL) throws {
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      throw ScenarioError.unreadable(path: file.path, reason: error.localizedDescription)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ScenarioError.notJSON(source: file.path, reason: "not UTF-8 text")
    }
    try self.init(json: text, source: file.path)
  }

  /// A named scenario, or else a JSON file at that path (`--scenario NAME|FILE`).
  public static func load(_ nameOrFile: String) throws -> Scenario {
    if let named = named(nameOrFile) { return named }
    guard FileManager.default.fileExists(atPath: nameOrFile) else {
      throw ScenarioError.unknown(name: nameOrFile, known: names)
    }
    return try Scenario(contentsOf: URL(fileURLWithPath: nameOrFile))
  }
}
