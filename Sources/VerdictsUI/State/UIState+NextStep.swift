import MarfaQueue

/// What a drain's outcome asks of the person, said with it: the key to press when a refused key
/// stopped the queue, and why a write just released is blocked `instance_changed`.
extension UIState {
  /// `text` with the next step after it, when the drain it reports needs one.
  static func withNextStep(_ text: String, after drain: DrainReport?, keyHint: String?, keys: KeyMap) -> String {
    // Only a message that reports this drain (in DrainReportText's words) says its next step.
    guard let drain, text.contains(DrainReportText.counts(drain)) else { return text }
    var out = text
    if drain.stopped != nil, text.contains("stopped:") {
      let k = keys.hint(.useKey) ?? "K"
      out += "; press \(k) and give \(keyHint ?? "another key") to send it"
    }
    let moved = drain.verdicts.filter { $0.verdict?.blockedReason == .instanceChanged }
    if !moved.isEmpty {
      let r = keys.hint(.release) ?? "r"
      let w = keys.hint(.withdraw) ?? "w"
      let what = moved.count == 1 ? "\(ShortID.of(moved[0].id)) was" : "\(moved.count) writes were"
      out +=
        "; \(what) queued against another instance than the one there now (instance_changed): "
        + "\(r) sends to the new one, \(w) withdraws"
    }
    return out
  }
}
