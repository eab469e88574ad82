import FoundationEssentials
import MarfaQueue

/// Everything the screen shows, as plain values; changed only by ``handle(_:)``.
package struct UIState: Sendable, Hashable {
  /// The terminal's size.
  public var width: Int
  /// Rows.
  public var height: Int
  /// The four panes, by `QueuePane.rawValue`.
  public var panes: [PaneState] = QueuePane.allCases.map(PaneState.init)
  /// The focused pane (the detail shows its selected write).
  public var focus: QueuePane = .waiting
  /// Whether the keys scroll the detail rather than move in the pane.
  public var detailFocused = false
  /// The detail's first shown line.
  public var detailScroll = 0
  /// The write the detail keeps showing after the drain moved the selection off it (nil: the
  /// detail shows the selection).
  public var detailHold: DetailHold?
  /// Marked writes (for bulk actions), across panes.
  public var marks: Set<String> = []
  /// The substring filter, applied in the store.
  public var filter: String?
  /// The id of the write followed as it moves between panes.
  public var following: String?
  /// Whether Answered keeps its newest write selected and on screen as verdicts land (on by
  /// default in `watch`; `T` toggles it, moving the selection by hand stops it).
  public var tailing = false
  /// Whether updates are paused (the panes hold still).
  public var paused = false
  /// Changes seen while paused.
  public var pendingChanges = 0
  /// Whether the help overlay is up.
  public var showingHelp = false
  /// A guide's steps (the demo's first minutes), and the one shown; nil when it is closed.
  public var guide: [String] = []
  public var guideStep: Int?
  /// The first help row shown (on screens too small for all of it).
  public var helpScroll = 0
  /// The attempts of the write ``detailAttemptsID`` as last read for the detail (its page's
  /// rows do not carry them).
  public var detailAttempts: WriteAttempts?
  public var detailAttemptsID: String?
  /// Whether the panes' rows come without bodies and answers (``QueueSource/pagesAreSummaries``):
  /// the detail then shows them from ``detailWhole``, read on its own.
  public var summaryPages = false
  /// The detail's write as read whole, when the panes' rows are summaries.
  public var detailWhole: QueuedWrite?
  /// The drains the history view shows (`H`), newest first, as last read; nil while it is not up.
  public var history: [DrainRecord]?
  /// The first drain the history view shows (on screens too small for all of them).
  public var historyScroll = 0
  /// A confirmation or menu, if one is up.
  public var dialog: Dialog?
  /// The first few writes an open confirmation acts on when the engine chooses them (a take, a
  /// release by reason), as read from the store when it opened (nil: not read yet).
  public var dialogExamples: [String]?
  /// A line of input, if one is open.
  public var prompt: Prompt?
  /// When the fading message shown now was first seen on a clock (``UIState/fadeMessage(at:)``).
  var fadeClock: FadeClock?
  /// The outcome of the last action.
  public var message: StatusMessage?
  /// What `u` puts back: the last discard, forget or take, until another action changes the queue.
  public var undoOffer: UndoOffer?
  /// The store's damage once said on the status line (it is said only once).
  public var damageSaid: StoreDamage?
  /// The marked writes the last action skipped because the rule refused them, said with that
  /// action's outcome.
  public var skipNote: String?
  /// Why this handle only reads (nil for the writer).
  public var readOnlyReason: String?
  /// Whether auto-drain holds `updates()`.
  public var autoDrain = false
  /// Whether the instance answered last time (nil: not known).
  public var reachable: Bool?
  /// The copy's status as last read.
  public var status: Status?
  /// The instance's URL (never the key).
  public var instanceURL: String?
  /// The last drain seen.
  public var lastDrain: DrainReport?
  /// The writer's published record as last read (nil: none known).
  public var writer: WriterRecord?
  /// When this screen last saw the writer live (for `last seen 12 s ago`).
  public var writerLastAlive: Date?
  /// The writer's drain rate over the last minute, for the status line's sparkline.
  var throughput = Throughput()
  /// Whether the store file is still the one opened, and since when it is not.
  public var storeFile: StoreFileState = .same
  public var storeFileChangedAt: Date?
  /// The time relative times are drawn against (set as records and ticks arrive; nil: none shown).
  public var now: Date?
  /// Whether withdraw asks first.
  public var confirmWithdraw = true
  /// Whether discard asks first.
  public var confirmDiscard = true
  /// Whether `t` asks first (`confirm-take` in the config).
  public var confirmTake = true
  /// Whether a release or forget of more than one write asks first (`confirm-bulk`).
  public var confirmBulk = true
  /// Whether clicks and the wheel go to the TUI (`--no-mouse`, `mouse = off` leave them to the terminal).
  public var mouseOn = true
  /// Whether `y` copies through OSC 52 (`clipboard = off` in the config turns it off).
  public var clipboard = true
  /// A multiplexer between the screen and the terminal that may keep the copy (nil: none).
  public var clipboardRelay: ClipboardRelay?
  /// The keys.
  public var keyMap: KeyMap = .defaults
  /// Draw with ASCII borders and glyphs.
  public var ascii = false
  /// Writes that changed or arrived in the last read after a change (drawn highlighted until
  /// the next one; no timer, so an idle screen stays still).
  public var fresh: Set<String> = []
  /// What each loaded write looked like, to tell which changed.
  var seen: [String: String] = [:]
  /// Panes whose next page read follows a change (not a scroll).
  var changeReads: Set<QueuePane> = []
  /// The key a refused-key stop asks for (the demo's), said with the stop; nil: "another key".
  public var keyHint: String?
  /// How many blocked writes each reason holds, as last counted for the `R` menu (nil: not yet).
  public var reasonCounts: [BlockedReason: Int]?
  /// The writes a jump or go-to left, last first out (`backspace` returns to them).
  public var trail: [String] = []
  /// The write selected when the go-to under way was asked for; pushed on ``trail`` once it lands.
  var gotoFrom: String?

  /// A state for a screen of this size.
  public init(width: Int = 80, height: Int = 24) {
    self.width = width
    self.height = height
  }

  /// The layout for the current size and focus, before a long message takes rows of its own.
  public var baseLayout: Layout { Layout(width: width, height: height, focus: focus, detailFocused: detailFocused) }

  /// The layout as the screen draws it: ``baseLayout`` with the rows a long message takes given
  /// up by the panes (``Renderer/drawnLayout(_:)``). Scrolling, paging and clicks count on it, so
  /// the selection is never on a row the message took.
  public var layout: Layout { Renderer.drawnLayout(self) }

  /// A pane's state.
  public subscript(pane: QueuePane) -> PaneState {
    get { panes[pane.rawValue] }
    set { panes[pane.rawValue] = newValue }
  }

  /// The focused pane's selected write, when loaded.
  public var selectedWrite: QueuedWrite? { self[focus].selectedWrite }

  /// Whether actions that change the queue are refused.
  public var readOnly: Bool { readOnlyReason != nil }

  /// How many rows a page read asks for: the visible rows and as many again, at least one.
  func pageLimit(_ pane: QueuePane) -> Int { max(1, layout.rows(pane)) * 2 }

  /// Rows used for moving by a page (at least one).
  func pageRows(_ pane: QueuePane) -> Int { max(1, layout.rows(pane)) }
}
