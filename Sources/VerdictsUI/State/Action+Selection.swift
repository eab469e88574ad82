extension Action {
  /// Whether the action scrolls the detail when the detail has the focus.
  var scrollsDetail: Bool {
    switch self {
    case .down, .up, .pageDown, .pageUp, .top, .bottom: return true
    default: return false
    }
  }

  /// Whether the action leaves the selection and the detail alone (a held detail stays held).
  var leavesSelection: Bool {
    switch self {
    case .repaint, .help, .history, .pause, .drain, .autoDrain, .useKey, .take, .tail, .quit: return true
    default: return false
    }
  }

  /// Whether the action acts on the selected write (with `marks`, the ones that act on the marked
  /// writes instead do not).
  func actsOnSelection(marks: Bool) -> Bool {
    switch self {
    case .release, .withdraw, .discard, .forget, .export: return !marks
    case .mark, .copyID, .jump, .follow: return true
    default: return false
    }
  }
}
