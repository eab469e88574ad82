/// One positional argument a command takes: `ID`, `FILE`, `[ID ...]`.
struct PositionalSpec: Sendable, Hashable {
  /// How many values it takes.
  enum Arity: Sendable, Hashable {
    /// Exactly one.
    case required
    /// None or one.
    case optional
    /// None or more (only the last positional).
    case many
  }

  /// Its name in help and errors: `ID`.
  var name: String
  /// How many values it takes.
  var arity: Arity
  /// One line for the help.
  var help: String
  /// What each value must be (text, or a path segment).
  var kind: ValueKind

  /// Creates a positional.
  init(_ name: String, _ arity: Arity = .required, _ kind: ValueKind = .text, help: String) {
    self.name = name
    self.arity = arity
    self.kind = kind
    self.help = help
  }

  /// `ID`, `[ID]`, `[ID ...]` as shown in a synopsis.
  var synopsis: String {
    switch arity {
    case .required: return name
    case .optional: return "[\(name)]"
    case .many: return "[\(name) ...]"
    }
  }
}
