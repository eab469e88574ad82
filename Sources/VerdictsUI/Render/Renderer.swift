import MarfaQueue

/// Draws a ``UIState`` into a ``Grid``: panes, detail, status line, overlays. Pure.
package struct Renderer: Sendable {
  let state: UIState
  let glyphs: Glyphs
  let layout: Layout

  /// A renderer for one state.
  public init(state: UIState) {
    self.state = state
    self.glyphs = state.ascii ? .ascii : .unicode
    self.layout = state.layout
  }

  /// The layout a state is drawn on. A message too long for the bottom line gets rows of its own
  /// between the status line and the keys: the panes and detail give them up, so every box stays
  /// whole.
  static func drawnLayout(_ state: UIState) -> Layout {
    var layout = state.baseLayout
    var rows = Self.messageRows(state, layout)
    // As many rows as leave the layout its mode and each pane a row.
    while rows > 0 {
      var smaller = Layout(
        width: state.width, height: state.height - rows, focus: state.focus, detailFocused: state.detailFocused)
      if smaller.mode == layout.mode, smaller.panes.values.allSatisfy({ $0.list.height > 0 }) {
        smaller.height = state.height
        smaller.hints = Rect(x: 0, y: state.height - 1, width: state.width, height: 1)
        layout = smaller
        break
      }
      rows -= 1
    }
    return layout
  }

  /// A renderer on a given layout, for measuring (no room made for a message).
  init(bare state: UIState, layout: Layout) {
    self.state = state
    self.glyphs = state.ascii ? .ascii : .unicode
    self.layout = layout
  }

  /// One frame of the state.
  public static func render(_ state: UIState) -> Grid { Renderer(state: state).render() }

  /// Draws the frame.
  public func render() -> Grid {
    if layout.mode == .tooLarge {
      // One line, on a grid no larger than the screen draws (the terminal keeps the rest).
      let text = Self.tooLargeText(width: state.width, height: state.height, ascii: state.ascii)
      var grid = Grid(width: min(state.width, Layout.maximumWidth), height: 1)
      grid.put(text, x: 0, y: 0, role: .statusError)
      return grid
    }
    var grid = Grid(width: state.width, height: state.height)
    if layout.mode == .tooSmall {
      let text = "too small: \(state.width)×\(state.height) (need \(Layout.minimumWidth)×\(Layout.minimumHeight))"
      grid.put(state.ascii ? text.replacing("×", with: "x") : text, x: 0, y: 0, role: .statusError)
      return grid
    }
    if let tabs = layout.tabs { drawTabs(into: &grid, tabs) }
    for pane in QueuePane.allCases {
      if let frame = layout.panes[pane] { drawPane(pane, frame, into: &grid) }
    }
    if let detail = layout.detail { drawDetail(into: &grid, detail) }
    drawStatus(into: &grid)
    drawHints(into: &grid)
    drawLongMessage(into: &grid)
    if let step = state.guideStep, state.guide.indices.contains(step) { drawGuide(step, into: &grid) }
    if state.showingHelp { drawHelp(into: &grid) }
    if let drains = state.history { drawHistory(drains, into: &grid) }
    if let dialog = state.dialog { drawDialog(dialog, into: &grid) }
    return grid
  }

  /// What a terminal larger than the screen draws is said in one line.
  public static func tooLargeText(width: Int, height: Int, ascii: Bool) -> String {
    let x = ascii ? "x" : "×"
    return
      "too large: \(width)\(x)\(height) (the screen draws at most \(Layout.maximumWidth)\(x)\(Layout.maximumHeight)); "
      + "make the window smaller: the screen waits for it"
  }

  /// A box border with a title in it.
  func drawBox(into grid: inout Grid, _ r: Rect, title: TextLine, right: TextLine? = nil, focused: Bool) {
    guard r.width >= 2, r.height >= 2 else { return }
    let role: Role = focused ? .borderFocus : .border
    let g = glyphs
    func cell(_ text: String) -> Cell { Cell(text: text, width: 1, role: role) }
    let horizontal = cell(g.horizontal)
    let vertical = cell(g.vertical)
    grid.set(cell(g.topLeft), x: r.x, y: r.y)
    grid.set(cell(g.topRight), x: r.x + r.width - 1, y: r.y)
    grid.set(cell(g.bottomLeft), x: r.x, y: r.maxY)
    grid.set(cell(g.bottomRight), x: r.x + r.width - 1, y: r.maxY)
    for x in (r.x + 1)..<(r.x + r.width - 1) {
      grid.set(horizontal, x: x, y: r.y)
      grid.set(horizontal, x: x, y: r.maxY)
    }
    for y in (r.y + 1)..<r.maxY {
      grid.set(vertical, x: r.x, y: y)
      grid.set(vertical, x: r.x + r.width - 1, y: y)
    }
    drawTitle(into: &grid, x: r.x + 1, y: r.y, width: r.width - 2, title: title, right: right, focused: focused)
  }

  /// A title rule: `─ Title ─────── right ─`.
  func drawRule(into grid: inout Grid, _ r: Rect, title: TextLine, right: TextLine?, focused: Bool) {
    let role: Role = focused ? .borderFocus : .border
    let horizontal = Cell(text: glyphs.horizontal, width: 1, role: role)
    for x in r.x..<(r.x + r.width) { grid.set(horizontal, x: x, y: r.y) }
    drawTitle(into: &grid, x: r.x, y: r.y, width: r.width, title: title, right: right, focused: focused)
  }

  func drawTitle(into grid: inout Grid, x: Int, y: Int, width: Int, title: TextLine, right: TextLine?, focused: Bool) {
    guard width > 4 else { return }
    let t = TextLine(" ") + title + TextLine(" ")
    t.draw(into: &grid, x: x + 1, y: y, limit: width - 2, ellipsis: glyphs.ellipsis)
    if let right {
      let rt = TextLine(" ") + right + TextLine(" ")
      let w = rt.width
      if t.width + w + 3 <= width { rt.draw(into: &grid, x: x + width - 1 - w, y: y, limit: w) }
    }
  }
}
