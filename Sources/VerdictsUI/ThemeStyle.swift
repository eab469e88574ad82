/// How a role is drawn: foreground, background and attributes.
public struct ThemeStyle: Sendable, Hashable {
  public var foreground: ThemeColor
  public var background: ThemeColor
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
