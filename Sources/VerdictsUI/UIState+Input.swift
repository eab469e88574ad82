import Foundation
import MarfaQueue

extension UIState {
  /// Keys while a prompt is open: typing, backspace, enter to submit, esc to cancel.
  mutating func promptKey(_ key: Key) -> [UIEffect] {
    guard var p = prompt else { return [] }
    switch key {
    case .char(let c):
      p.text.append(c)
      prompt = p
      return []
    case .backspace, .delete:
      if !p.text.isEmpty { p.text.removeLast() }
      prompt = p
      return []
    case .ctrl("u"):
      p.text = ""
      prompt = p
      return []
    case .escape:
      prompt = nil
      message = StatusMessage(p.kind == .key ? "key unchanged" : p.kind == .goto ? "go to cancelled" : "filter unchanged")
      return []
    case .enter:
      prompt = nil
      return submit(p)
    default:
      return []
    }
  }

  mutating func submit(_ p: Prompt) -> [UIEffect] {
    switch p.kind {
    case .key:
      let key = p.text.trimmingCharacters(in: .whitespaces)
      guard !key.isEmpty else { return refuse("key unchanged: none was typed") }
      message = StatusMessage("trying the new key…")
      return [.useKey(key)]
    case .goto: return goto(p.text)
    case .filter:
      let text = p.text
      filter = text.isEmpty ? nil : text
      for pane in QueuePane.allCases {
        self[pane].selected = 0
        self[pane].top = 0
      }
      message = StatusMessage(text.isEmpty ? "filter cleared" : "filter: \(text)")
      return reloadAll()
    }
  }

  /// Keys while a dialog is up: `y` confirms, the menu moves and chooses, anything else cancels.
  mutating func dialogKey(_ key: Key) -> [UIEffect] {
    guard let d = dialog else { return [] }
    switch d {
    case .confirm(let pending):
      dialog = nil
      if key == .char("y") || key == .char("Y") { return run(pending) }
      message = StatusMessage("\(pending.verb) cancelled")
      return []
    case .releaseReason(let selected):
      let reasons = reasonMenu
      switch key {
      case .char("j"), .down:
        dialog = .releaseReason(selected: min(reasons.count - 1, selected + 1))
        return []
      case .char("k"), .up:
        dialog = .releaseReason(selected: max(0, selected - 1))
        return []
      case .enter:
        return releaseReason(reasons[selected])
      case .char(let c) where c.wholeNumberValue.map { (1...reasons.count).contains($0) } ?? false:
        return releaseReason(reasons[c.wholeNumberValue! - 1])
      default:
        dialog = nil
        message = StatusMessage("release by reason cancelled")
        return []
      }
    }
  }

  mutating func releaseReason(_ reason: BlockedReason) -> [UIEffect] {
    dialog = nil
    message = StatusMessage("releasing every write blocked \(reason.wireName)…")
    return [.releaseReason(reason)]
  }
}
