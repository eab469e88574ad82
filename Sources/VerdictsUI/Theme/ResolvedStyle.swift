/// A role's style for one terminal: palette indexes and attributes.
package struct ResolvedStyle: Sendable, Hashable {
  /// The foreground's palette index; nil for the terminal's own.
  public var foreground: Int?
  /// The background's palette index; nil for the terminal's own.
  public var background: Int?
  /// Bold, dim, underline, reverse.
  public var attributes: CellAttributes

  /// The style in words: `fg=1 bg=default bold`.
  public var text: String {
    let fg = foreground.map(String.init) ?? "default"
    let bg = background.map(String.init) ?? "default"
    return (["fg=\(fg)", "bg=\(bg)"] + attributes.names).joined(separator: " ")
  }
}
