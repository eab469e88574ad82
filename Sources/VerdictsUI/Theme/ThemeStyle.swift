/// How a role is drawn: foreground, background and attributes.
package struct ThemeStyle: Sendable, Hashable {
  /// The text colour.
  public var foreground: ThemeColor
  /// The cell colour.
  public var background: ThemeColor
  /// Bold, dim, underline, reverse.
  public var attributes: CellAttributes

  /// Creates a style.
  public init(
    foreground: ThemeColor = .terminalDefault, background: ThemeColor = .terminalDefault,
    attributes: CellAttributes = []
  ) {
    self.foreground = foreground
    self.background = background
    self.attributes = attributes
  }

  /// The style as a theme file line's value: `red default bold`.
  public var text: String {
    ([foreground.name, background.name] + attributes.names).joined(separator: " ")
  }
}
