/// One node of the command tree: a command, a group of subcommands, or both (the root).
struct CommandSpec: Sendable {
  /// The word typed: `create`.
  var name: String
  /// One line for the help and for the parent's list.
  var summary: String
  /// What runs; nil for a group that only holds subcommands.
  var id: CommandID?
  /// Positional arguments, in order.
  var positionals: [PositionalSpec] = []
  /// The command's own options (global options are accepted too).
  var options: [OptionSpec] = []
  /// Rules across arguments.
  var constraints: [Constraint] = []
  /// Subcommands, in the order help lists them.
  var subcommands: [CommandSpec] = []
  /// Left out of help (test and support commands).
  var hidden = false
  /// More help text, printed after the options.
  var discussion: String? = nil

  /// The subcommand named `word`, if any.
  func subcommand(_ word: String) -> CommandSpec? {
    subcommands.first { $0.name == word }
  }

  /// The command's own option named `name` (`--type`), if any.
  func option(_ name: String) -> OptionSpec? {
    options.first { $0.name == name }
  }

  /// Every command below this one, depth first, with its path of words.
  func walk(_ path: [String] = []) -> [(path: [String], spec: CommandSpec)] {
    var out: [(path: [String], spec: CommandSpec)] = [(path, self)]
    for sub in subcommands { out += sub.walk(path + [sub.name]) }
    return out
  }
}
