import MarfaQueue

/// `!`: the refused writes, among hundreds of accepted ones, at one key.
extension UIState {
  /// The filter `!` applies: the refused writes (they are in Answered).
  static let refusedFilter = "verdict:refused"

  /// Shows only the refused writes (Answered focused), or, when that is the filter already,
  /// every write again.
  mutating func showRefused() -> [UIEffect] {
    let key = keyMap.hint(.refused) ?? "!"
    if filter == Self.refusedFilter {
      message = StatusMessage("every write again (the filter \(Self.refusedFilter) cleared)")
      return applyFilter("")
    }
    var effects = applyFilter(Self.refusedFilter)
    effects += focusPane(.answered)
    message = StatusMessage("refused writes only (filter \(Self.refusedFilter)); \(key) again or esc shows every write")
    return effects
  }
}
