/// The guide: one step at a time in a box over what the person is not looking at (over the
/// detail's end when the detail is tall enough to keep its first lines in sight, else at the top
/// when it fits above the focused pane), its keys on its border: `n` next, `p` back, `esc`
/// closes it (``UIState/guide``).
extension Renderer {
  func drawGuide(_ step: Int, into grid: inout Grid) {
    let width = min(state.width - 2, 76)
    let last = step + 1 == state.guide.count
    let keys = "n \(last ? "closes" : "next")\(step > 0 ? " \(glyphs.separator) p back" : "") \(glyphs.separator) esc"
    let lines = Self.wordWrap(state.guide[step], width: width - 4)
    let height = min(lines.count + 2, max(3, state.height - 4))
    // Over the detail's end where the detail keeps its first lines in sight (the write's id,
    // verdict and what clears it), else at the top when it fits above the focused pane.
    let focusTop = layout.panes[state.focus]?.outer.y ?? 0
    let detail = layout.detail
    let bottom = detail?.maxY ?? (state.height - 3)
    let detailRoom = (detail?.height ?? 0) - height
    let y = detailRoom >= 6 || focusTop < height ? max(0, bottom - height) : 0
    let r = Rect(x: max(0, (state.width - width) / 2), y: y, width: width, height: height)
    grid.fill(r, role: .dialog)
    drawBox(
      into: &grid, r, title: TextLine("Guide \(step + 1) of \(state.guide.count)", .titleFocus),
      right: TextLine(keys, .titleFocus), focused: true)
    for (i, line) in lines.prefix(height - 2).enumerated() {
      TextLine(line, .dialog).draw(
        into: &grid, x: r.x + 2, y: r.y + 1 + i, limit: r.width - 3, ellipsis: glyphs.ellipsis)
    }
  }
}
