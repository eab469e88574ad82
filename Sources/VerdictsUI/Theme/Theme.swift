/// A set of styles for the semantic roles, read from a theme file.
package struct Theme: Sendable, Hashable {
  /// The theme's name (its file name without `.theme`).
  public var name: String
  /// The styles the file set; roles it left out fall back to the default theme.
  public var styles: [Role: ThemeStyle]

  /// Creates a theme.
  public init(name: String, styles: [Role: ThemeStyle]) {
    self.name = name
    self.styles = styles
  }

  /// The style of a role: this theme's, else the default theme's, else the terminal's own.
  public func style(_ role: Role) -> ThemeStyle {
    if let s = styles[role] { return s }
    if name != "default", let s = Theme.builtinDefault.styles[role] { return s }
    return ThemeStyle()
  }

  /// A role's style resolved for a terminal: palette indexes (nil: the terminal's own) and attributes.
  public func resolved(_ role: Role, depth: ColorDepth) -> ResolvedStyle {
    let s = style(role)
    return ResolvedStyle(
      foreground: s.foreground.index(for: depth), background: s.background.index(for: depth),
      attributes: s.attributes)
  }

  /// The built-in default theme.
  public static let builtinDefault: Theme = ThemeReader.read(
    name: "default", text: BuiltinThemes.text(of: "default") ?? ""
  ).theme

  /// A built-in theme by name, or nil.
  public static func builtin(_ name: String) -> Theme? {
    BuiltinThemes.text(of: name).map { ThemeReader.read(name: name, text: $0).theme }
  }
}
