import MarfaQueue

/// The mouse: a click on a row selects it and focuses its pane, a click on a pane's title focuses
/// it, the wheel scrolls the pane under it (or the detail, or the help).
extension UIState {
  /// How many rows one turn of the wheel moves.
  static let wheelRows = 3

  mutating func mouse(_ m: MouseEvent) -> [UIEffect] {
    if prompt != nil || dialog != nil { return [] }
    if history != nil {
      switch m.kind {
      case .wheelDown: historyScroll += Self.wheelRows
      case .wheelUp: historyScroll = max(0, historyScroll - Self.wheelRows)
      case .click: history = nil
      }
      return []
    }
    if showingHelp {
      switch m.kind {
      case .wheelDown: helpScroll += Self.wheelRows
      case .wheelUp: helpScroll = max(0, helpScroll - Self.wheelRows)
      case .click: showingHelp = false
      }
      return []
    }
    let l = layout
    // A click, or the wheel over a pane, shows the selection in a held detail; the wheel over the
    // detail scrolls the held write.
    let wheelOverDetail = m.kind != .click && l.detail?.contains(x: m.x, y: m.y) == true
    if !wheelOverDetail { endDetailHold() }
    if let detail = l.detail, detail.contains(x: m.x, y: m.y) {
      switch m.kind {
      case .wheelDown: detailScroll += Self.wheelRows
      case .wheelUp: detailScroll = max(0, detailScroll - Self.wheelRows)
      case .click:
        detailFocused = true
        return relayout()
      }
      return []
    }
    if let tabs = l.tabs, tabs.contains(x: m.x, y: m.y), m.kind == .click {
      // The tab line: four equal parts, one per pane.
      let i = min(3, max(0, (m.x - tabs.x) * 4 / max(1, tabs.width)))
      return focusPane(QueuePane(rawValue: i)!)
    }
    for pane in QueuePane.allCases {
      guard let frame = l.panes[pane], frame.outer.contains(x: m.x, y: m.y) else { continue }
      var effects: [UIEffect] = []
      if focus != pane || detailFocused { effects += focusPane(pane) }
      switch m.kind {
      case .wheelDown: effects += select(self[pane].selected + Self.wheelRows)
      case .wheelUp: effects += select(self[pane].selected - Self.wheelRows)
      case .click:
        if frame.list.contains(x: m.x, y: m.y) {
          let index = self[pane].top + (m.y - frame.list.y)
          if index < self[pane].total { effects += select(index) }
        }
      }
      return effects
    }
    return []
  }
}
