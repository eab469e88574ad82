import MarfaWire

/// A run of text in one role.
struct Span: Sendable, Hashable {
  var text: String
  var role: Role
  var attributes: CellAttributes = []

  init(_ text: String, _ role: Role = .text, _ attributes: CellAttributes = []) {
    self.text = text
    self.role = role
    self.attributes = attributes
  }

  /// The columns it takes once sanitized.
  var width: Int { CharWidth.of(Sanitizer.clean(text)) }
}
