import MarfaQueue

/// What the parser took from a command line: the command's values, and the global options.
struct ParsedArguments: Sendable, Hashable {
  /// The words of the command (`["items", "create"]`); empty for the default command.
  var path: [String] = []
  /// Values by option name (`--tag`) or positional name (`ID`), in the order given.
  var values: [String: [String]] = [:]
  /// Flags given, by name.
  var flags: Set<String> = []
  /// Global options' values, by name (`--store`).
  var globals: [String: String] = [:]
  /// Global flags given (`--json`).
  var globalFlags: Set<String> = []

  /// The single value of an option or positional, if given.
  func string(_ name: String) -> String? { values[name]?.last }

  /// Every value of a repeatable option or a `many` positional.
  func strings(_ name: String) -> [String] { values[name] ?? [] }

  /// A whole-number value (checked by the parser).
  func int(_ name: String) -> Int? { string(name).flatMap { Int($0) } }

  /// A JSON value (checked by the parser).
  func json(_ name: String) -> JSONValue? { string(name).flatMap { JSONValue.parse($0) } }

  /// Whether a flag was given.
  func flag(_ name: String) -> Bool { flags.contains(name) }

  /// Whether an option, positional or flag was given at all.
  func has(_ name: String) -> Bool { values[name] != nil || flags.contains(name) }
}
