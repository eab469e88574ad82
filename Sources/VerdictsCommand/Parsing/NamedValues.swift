import ScriptedInstance
import VerdictsUI

/// The names an option's value may be besides a file (`--theme NAME|FILE`, `--scenario NAME|FILE`)
/// or an id (`--from now|ID`): shown in the man page and offered by the shell completion.
enum NamedValues {
  /// The names the option `name` takes, or an empty list.
  static func of(_ name: String) -> [String] {
    switch name {
    case "--theme": return ThemeChoice.builtinNames
    case "--scenario": return Scenario.names
    case "--from": return ["now"]
    default: return []
    }
  }
}
