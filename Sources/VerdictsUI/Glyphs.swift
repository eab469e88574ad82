/// The characters for borders and verdict marks: Unicode, or ASCII for `--ascii` and
/// terminals whose locale is not UTF-8.
public struct Glyphs: Sendable, Hashable {
  public var horizontal: String
  public var vertical: String
  public var topLeft: String
  public var topRight: String
  public var bottomLeft: String
  public var bottomRight: String
  /// Cut text ends with this.
  public var ellipsis: String
  public var waiting: String
  public var held: String
  public var accepted: String
  public var merged: String
  public var conflicted: String
  public var refused: String
  public var blocked: String
  public var dead: String
  public var mark: String
  public var arrow: String
  public var separator: String
  /// Between the ends of a range: `1–20`.
  public var dash: String

  /// Box-drawing borders and symbol marks.
  public static let unicode = Glyphs(
    horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
    ellipsis: "…", waiting: "○", held: "◌", accepted: "✓", merged: "≈", conflicted: "⇄", refused: "✗",
    blocked: "■", dead: "†", mark: "●", arrow: "→", separator: "·", dash: "–")

  /// Plain ASCII, for any terminal.
  public static let ascii = Glyphs(
    horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
    ellipsis: "~", waiting: "o", held: ".", accepted: "+", merged: "~", conflicted: "=", refused: "x",
    blocked: "#", dead: "!", mark: "*", arrow: "->", separator: "|", dash: "-")
}
