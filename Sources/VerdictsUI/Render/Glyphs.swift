/// The characters for borders and verdict marks: Unicode, or ASCII for `--ascii` and
/// terminals whose locale is not UTF-8.
package struct Glyphs: Sendable, Hashable {
  /// Border: horizontal line.
  public var horizontal: String
  /// Border: vertical line.
  public var vertical: String
  /// Border: top-left corner.
  public var topLeft: String
  /// Border: top-right corner.
  public var topRight: String
  /// Border: bottom-left corner.
  public var bottomLeft: String
  /// Border: bottom-right corner.
  public var bottomRight: String
  /// Cut text ends with this.
  public var ellipsis: String
  /// A write with no verdict yet.
  public var waiting: String
  /// A write held behind another (`waiting on <id>`).
  public var held: String
  /// Accepted.
  public var accepted: String
  /// Merged.
  public var merged: String
  /// Conflicted.
  public var conflicted: String
  /// Refused.
  public var refused: String
  /// Blocked.
  public var blocked: String
  /// Dead.
  public var dead: String
  /// A row marked for a bulk action.
  public var mark: String
  /// Between a source and a target.
  public var arrow: String
  /// Between parts of a line.
  public var separator: String
  /// Between the ends of a range: `1–20`.
  public var dash: String

  /// Box-drawing borders and symbol marks.
  public static let unicode = Glyphs(
    horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
    ellipsis: "…", waiting: "○", held: "◌", accepted: "✓", merged: "≈", conflicted: "⇄", refused: "✗",
    blocked: "■", dead: "†", mark: "●", arrow: "→", separator: "·", dash: "–")

  /// Plain ASCII, for any terminal: no verdict glyph is a border character (`+ - |`) or the
  /// ellipsis (`~`).
  public static let ascii = Glyphs(
    horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
    ellipsis: "~", waiting: "o", held: ".", accepted: "v", merged: "&", conflicted: "=", refused: "x",
    blocked: "#", dead: "!", mark: "*", arrow: "->", separator: "|", dash: "-")
}
