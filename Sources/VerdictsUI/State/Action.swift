/// Everything a key can be bound to. The raw value is the name a key file uses.
package enum Action: String, Sendable, Hashable, CaseIterable {
  case nextPane = "next-pane"
  case previousPane = "previous-pane"
  case paneWaiting = "pane-waiting"
  case paneAnswered = "pane-answered"
  case paneBlocked = "pane-blocked"
  case paneDead = "pane-dead"
  case down
  case up
  case top
  case bottom
  case pageDown = "page-down"
  case pageUp = "page-up"
  case focusDetail = "focus-detail"
  case mark
  case markAll = "mark-all"
  case clear
  case release
  case releaseReason = "release-reason"
  case withdraw
  case discard
  case take
  case forget
  case undo
  case drain
  case autoDrain = "auto-drain"
  case useKey = "use-key"
  case filter
  case refused = "show-refused"
  case sort
  case pause
  case follow
  case goto
  case jump
  case back
  case copyID = "copy-id"
  case export
  case tail
  case history
  case help
  case repaint
  case quit

  /// Whether the action changes the queue or the copy (refused in read-only mode).
  public var writes: Bool {
    switch self {
    case .release, .releaseReason, .withdraw, .discard, .take, .forget, .undo, .drain, .autoDrain, .useKey: return true
    default: return false
    }
  }

  /// Whether the action can't be undone (never bound to a control key by default; asks first).
  public var destructive: Bool { self == .withdraw || self == .discard }

  /// A few words for help and hints.
  public var summary: String {
    switch self {
    case .nextPane: return "next pane"
    case .previousPane: return "previous pane"
    case .paneWaiting: return "Waiting pane"
    case .paneAnswered: return "Answered pane"
    case .paneBlocked: return "Blocked pane"
    case .paneDead: return "Dead pane"
    case .down: return "down"
    case .up: return "up"
    case .top: return "first write"
    case .bottom: return "last write"
    case .pageDown: return "page down"
    case .pageUp: return "page up"
    case .focusDetail: return "focus the detail (scroll it)"
    case .mark: return "mark or unmark"
    case .markAll: return "mark every write in the pane"
    case .clear: return "clear marks, filter, message"
    case .release: return "release (selected or marked)"
    case .releaseReason: return "release by blocked reason"
    case .withdraw: return "withdraw (asks first)"
    case .discard: return "discard a refused write (asks first)"
    case .take: return "take answered writes"
    case .forget: return "forget selected answered"
    case .undo: return "undo the last discard, forget or take (right after it)"
    case .drain: return "drain now"
    case .autoDrain: return "auto-drain on/off"
    case .useKey: return "use another key"
    case .filter: return "filter"
    case .refused: return "show only refused writes (again: every write)"
    case .sort: return "sort the pane: sent, newest, age, streak, reason, kind"
    case .pause: return "pause updates"
    case .follow: return "follow the selected write"
    case .goto: return "go to a write by ID (full, shown, or 6+ characters)"
    case .jump: return "jump to the write it waits on"
    case .back: return "back to where the last jump or go-to left"
    case .copyID: return "copy the selected write's full ID (OSC 52)"
    case .export: return "write the selected (or marked) writes' detail to a file here"
    case .tail: return "tail Answered (newest)"
    case .history: return "the drains before this one (the last 500 the store keeps)"
    case .help: return "help"
    case .repaint: return "repaint"
    case .quit: return "quit"
    }
  }

  /// A short word for the key hints in the status line.
  var hint: String {
    switch self {
    case .release: return "release"
    case .releaseReason: return "by reason"
    case .withdraw: return "withdraw"
    case .discard: return "discard"
    case .take: return "take"
    case .forget: return "forget"
    case .undo: return "undo"
    case .drain: return "drain"
    case .autoDrain: return "auto"
    case .useKey: return "key"
    case .filter: return "filter"
    case .refused: return "refused"
    case .sort: return "sort"
    case .pause: return "pause"
    case .follow: return "follow"
    case .goto: return "go to"
    case .jump: return "jump"
    case .back: return "back"
    case .copyID: return "copy ID"
    case .export: return "export"
    case .tail: return "tail"
    case .history: return "history"
    case .help: return "help"
    case .quit: return "quit"
    case .mark: return "mark"
    case .focusDetail: return "detail"
    case .clear: return "clear"
    default: return summary
    }
  }
}
