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

extension BlockedReason {
  /// Its key in the `R` menu, the same whichever reasons hold writes: its place in the
  /// contract's order, from 1 (`1` credential_refused … `6` instance_changed).
  var menuKey: Int { (BlockedReason.allCases.firstIndex(of: self) ?? 0) + 1 }

  /// The reason whose `R` menu key is `digit`.
  static func forMenuKey(_ digit: Int) -> BlockedReason? {
    allCases.indices.contains(digit - 1) ? allCases[digit - 1] : nil
  }
}
