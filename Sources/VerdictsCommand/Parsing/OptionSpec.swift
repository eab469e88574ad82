/// One `--name` option a command (or every command) accepts.
struct OptionSpec: Sendable, Hashable {
  /// The option as typed, with its dashes: `--type`.
  var name: String
  /// What its value must be.
  var value: ValueKind
  /// The value's name in help: `T`, `JSON`, `N`.
  var placeholder: String
  /// One line for the help.
  var help: String
  /// Whether the command refuses to run without it.
  var required: Bool
  /// Whether it may be given more than once (each value is kept, in order).
  var repeatable: Bool

  /// Creates an option that takes a value.
  static func value(
    _ name: String, _ placeholder: String, _ kind: ValueKind = .text, required: Bool = false,
    repeatable: Bool = false, help: String
  ) -> OptionSpec {
    OptionSpec(
      name: name, value: kind, placeholder: placeholder, help: help, required: required, repeatable: repeatable)
  }

  /// Creates a flag.
  static func flag(_ name: String, help: String) -> OptionSpec {
    OptionSpec(name: name, value: .flag, placeholder: "", help: help, required: false, repeatable: false)
  }

  /// `--type T`, `--json`, `[--tag T ...]` as shown in a synopsis.
  var synopsis: String {
    let base = value.takesValue ? "\(name) \(placeholder)" : name
    let many = repeatable ? " ..." : ""
    return required ? base + many : "[\(base)\(many)]"
  }
}
