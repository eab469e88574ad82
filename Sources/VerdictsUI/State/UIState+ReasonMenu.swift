import MarfaQueue

/// The `R` menu's reasons: every reason until the counts arrive, then only those holding writes.
extension UIState {
  /// The reasons the menu lists, in the contract's order.
  var reasonMenu: [BlockedReason] {
    guard let counts = reasonCounts else { return BlockedReason.allCases }
    return BlockedReason.allCases.filter { (counts[$0] ?? 0) > 0 }
  }

  /// The highlighted row of the menu, when it is up.
  var menuIndex: Int {
    if case .releaseReason(let selected) = dialog { return selected }
    return 0
  }
}
