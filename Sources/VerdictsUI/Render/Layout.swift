import MarfaQueue

/// Where everything goes on a screen of a given size.
///
/// - `grid` (≥ 100×30): the four panes two by two, the detail below, full width.
/// - `stack` (≥ 60×16): the panes stacked, each under a title rule; the focused pane gets the
///   rows, the others one or two; the detail below (with the focus, it takes all but the four
///   title rules and the selected row).
/// - `single` (≥ 40×10): a tab line and one pane at a time; `enter` shows the detail instead.
/// - `tooSmall`: one line saying so.
/// - `tooLarge` (past ``maximumWidth``×``maximumHeight``): one line saying so; nothing else is
///   laid out, read or drawn until the terminal is a size the screen draws.
/// The last rows are the status line (two rows in `grid`, one elsewhere) and the message or
/// key hints.
package struct Layout: Sendable, Hashable {
  /// How the screen is divided.
  public enum Mode: String, Sendable, Hashable {
    case grid, stack, single, tooSmall = "too-small", tooLarge = "too-large"
  }

  /// One pane's frame: its outer rectangle (with border or title rule) and its list rows.
  public struct Frame: Sendable, Hashable {
    /// The frame with its border or title rule.
    public var outer: Rect
    /// The rows the writes are drawn in.
    public var list: Rect
    /// Whether it is a box (grid) or a title rule (stack).
    public var boxed: Bool
  }

  /// How the screen is divided.
  public var mode: Mode
  /// Columns.
  public var width: Int
  /// Rows.
  public var height: Int
  /// The panes drawn, with their frames (in `single`, only the focused one).
  public var panes: [QueuePane: Frame]
  /// The detail's outer rectangle, when shown.
  public var detail: Rect?
  /// Whether the detail is a box.
  public var detailBoxed: Bool
  /// The tab line (`single`).
  public var tabs: Rect?
  /// The status line.
  public var status: Rect
  /// The message or key-hint line.
  public var hints: Rect

  /// The smallest screen drawn in full.
  public static let minimumWidth = 40
  /// The fewest rows drawn in full.
  public static let minimumHeight = 10
  /// The widest screen drawn: a cell grid past 1000×1000 is a million cells a frame (a
  /// 65535×65535 terminal took 25 s and 1.19 GB to a first frame).
  public static let maximumWidth = 1000
  /// The most rows drawn.
  public static let maximumHeight = 1000

  /// Whether a terminal of this size is larger than the screen draws.
  public static func isTooLarge(width: Int, height: Int) -> Bool { width > maximumWidth || height > maximumHeight }

  /// Lays out a screen for the focused pane and whether the detail has the focus.
  public init(width: Int, height: Int, focus: QueuePane, detailFocused: Bool) {
    self.width = width
    self.height = height
    panes = [:]
    detail = nil
    detailBoxed = false
    tabs = nil
    status = Rect(x: 0, y: height - 2, width: width, height: 1)
    hints = Rect(x: 0, y: height - 1, width: width, height: 1)
    if Self.isTooLarge(width: width, height: height) {
      mode = .tooLarge
      status = Rect(x: 0, y: 0, width: 0, height: 0)
      hints = status
      return
    }
    if width < Self.minimumWidth || height < Self.minimumHeight {
      mode = .tooSmall
      return
    }
    var body = height - 2
    if width >= 100 && height >= 30 {
      mode = .grid
      body -= 1
      status = Rect(x: 0, y: height - 3, width: width, height: 2)
      let paneArea = body * 11 / 20
      let half = paneArea / 2
      let left = width / 2
      let order: [(QueuePane, Rect)] = [
        (.waiting, Rect(x: 0, y: 0, width: left, height: half)),
        (.answered, Rect(x: left, y: 0, width: width - left, height: half)),
        (.blocked, Rect(x: 0, y: half, width: left, height: paneArea - half)),
        (.dead, Rect(x: left, y: half, width: width - left, height: paneArea - half)),
      ]
      for (pane, r) in order { panes[pane] = Frame(outer: r, list: r.inner, boxed: true) }
      detail = Rect(x: 0, y: paneArea, width: width, height: body - paneArea)
      detailBoxed = true
    } else if width >= 60 && height >= 16 {
      mode = .stack
      // The detail, when it has the focus, takes the rows the panes would have had: each pane
      // keeps its title rule (its count), the focused one its selected row as well.
      let detailHeight = detailFocused ? body - 5 : max(6, body * 2 / 5)
      let paneArea = body - detailHeight
      let listRows = paneArea - 4
      let others = detailFocused ? 0 : max(1, min(2, listRows / 6))
      let focusedRows = listRows - 3 * others
      var y = 0
      for pane in QueuePane.allCases {
        let rows = pane == focus ? focusedRows : others
        let outer = Rect(x: 0, y: y, width: width, height: rows + 1)
        panes[pane] = Frame(outer: outer, list: Rect(x: 0, y: y + 1, width: width, height: rows), boxed: false)
        y += rows + 1
      }
      detail = Rect(x: 0, y: paneArea, width: width, height: detailHeight)
      detailBoxed = true
    } else {
      mode = .single
      tabs = Rect(x: 0, y: 0, width: width, height: 1)
      let area = Rect(x: 0, y: 1, width: width, height: body - 1)
      if detailFocused {
        detail = area
      } else {
        panes[focus] = Frame(outer: area, list: area, boxed: false)
      }
    }
  }

  /// How many list rows a pane shows (0 when not drawn).
  public func rows(_ pane: QueuePane) -> Int { panes[pane]?.list.height ?? 0 }

  /// The detail's text rows (inside its border).
  public var detailRows: Int {
    guard let detail else { return 0 }
    return detailBoxed ? max(0, detail.height - 2) : detail.height
  }
}
