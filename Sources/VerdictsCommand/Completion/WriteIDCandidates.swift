import FoundationEssentials
import Glibc
import MarfaQueue

/// The ids the shell completion offers for `show`, `release`, `withdraw`, `discard`, `forget` and
/// `watch --from`: read from the store without changing it, a bounded number, fast.
enum WriteIDCandidates {
  /// The most ids offered.
  static let limit = 500
  /// The most writes looked at (in pages of a pane, without their bodies) to find them.
  static let looked = 5_000

  /// The full ids of up to ``limit`` writes `action` may take (nil: any write), in pane order
  /// and then send order; none when there is no store at `path` or it cannot be read.
  static func ids(store path: String, action: WriteAction?) async -> [String] {
    // Only a regular file is opened: a FIFO or a device could block or change under a read.
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return [] }
    guard let kind = try? StoreFile.kind(at: path) else { return [] }
    var ids: [String] = []
    var seen = 0
    func take(_ writes: [QueuedWrite]) {
      seen += writes.count
      for write in writes where ids.count < limit && (action.map { write.allows($0).isAllowed } ?? true) {
        ids.append(write.id)
      }
    }
    if case .marfaCore = kind {
      guard let core = try? CoreStore.open(path: path) else { return [] }
      defer { core.close() }
      for pane in panes(for: action) where ids.count < limit && seen < looked {
        guard let page = try? core.readPage(pane, offset: 0, limit: looked - seen, filter: nil) else { break }
        take(page.writes)
      }
      return ids
    }
    guard let copy = try? await WorkingCopy.openReader(store: URL(fileURLWithPath: path)) else { return [] }
    defer { copy.close() }
    for pane in panes(for: action) {
      var cursor = 0
      while ids.count < limit && seen < looked {
        guard let page = try? await copy.queue.summaries(pane, cursor: cursor, limit: min(limit, looked - seen)),
          !page.writes.isEmpty
        else { break }
        take(page.writes)
        cursor = page.next
      }
    }
    return ids
  }

  /// The full ids of up to ``limit`` departed writes an undo may put back, newest departure
  /// first; none when there is no store of this project's at `path` (a Marfa core store keeps no
  /// archive).
  static func departedIDs(store path: String) async -> [String] {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return [] }
    guard case .verdicts? = try? StoreFile.kind(at: path) else { return [] }
    guard let copy = try? await WorkingCopy.openReader(store: URL(fileURLWithPath: path)) else { return [] }
    defer { copy.close() }
    let departed = (try? await copy.queue.departed(limit: limit)) ?? []
    var ids: [String] = []
    for d in departed where d.departure != .withdrawn && !ids.contains(d.id) { ids.append(d.id) }
    return ids
  }

  /// The panes that may hold a write `action` takes, the likeliest first.
  static func panes(for action: WriteAction?) -> [QueuePane] {
    switch action {
    case nil: return QueuePane.allCases
    case .release?: return [.blocked, .dead, .answered]
    case .withdraw?: return [.blocked]
    case .discard?, .forget?: return [.answered]
    }
  }

  /// The ids as the screen shows them, without the ellipsis (`43da8578`), that fit the word typed
  /// (which may carry the ellipsis: `…43`); a full id where two writes share the short form, or
  /// where the word is the start of a full id. An id holding a control character or a character
  /// outside ASCII is left out (it could not be typed back, or would steer the terminal listing
  /// it); one holding spaces, quotes, `$(…)`, `;`, `|` or `&` is offered, for the shell's script
  /// to quote (``CompletionScript``).
  static func fitting(_ ids: [String], _ word: String) -> [String] {
    let typed = bare(word).lowercased()
    var count: [String: Int] = [:]
    for id in ids { count[short(id), default: 0] += 1 }
    var out: [String] = []
    for id in ids where id.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
      let shown = short(id)
      if shown.lowercased().hasPrefix(typed) {
        out.append(count[shown] == 1 ? shown : id)
      } else if !typed.isEmpty, id.lowercased().hasPrefix(typed) {
        out.append(id)
      }
    }
    return out
  }

  /// An id as a list shows it, without the ellipsis: whole up to 10 characters, else its last 8.
  static func short(_ id: String) -> String {
    id.count <= 10 ? id : String(id.suffix(8))
  }

  /// The word without a leading ellipsis (`…`, `...`, or `~` as `--ascii` draws it).
  static func bare(_ word: String) -> String {
    for mark in ["…", "...", "~"] where word.hasPrefix(mark) { return String(word.dropFirst(mark.count)) }
    return word
  }
}
