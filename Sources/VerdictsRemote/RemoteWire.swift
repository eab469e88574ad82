import FoundationEssentials
import MarfaQueue

/// The remote protocol: what crosses an ssh link between `verdicts` on a person's machine and
/// `verdicts serve` on the device (docs/remote.md). One JSON object a line, UTF-8, each way.
package enum RemoteWire {
  /// The protocol versions this build speaks, oldest first.
  package static let versions = [1]

  /// The longest line either side takes (a page of summaries is far under it); a longer one
  /// ends the link as broken.
  package static let lineLimit = 8 << 20

  /// The calls this build's server answers, by name (``RemoteCall/name``).
  package static let offers = [
    "page", "status", "write", "shown_write", "release", "release_reason", "release_ids", "withdraw", "discard",
    "take_answered", "forget_answered", "undo", "drain", "use_key", "summaries", "locate", "changed", "writer",
    "last_drain_ended_at", "history", "attempts", "departed_write", "blocked_counts", "resolve_id",
    "follow_updates", "follow_files", "page_rows", "page_summaries", "fill", "last_release", "undo_release",
  ]

  /// A write's digest: FNV-1a (64 bits) of its JSON with sorted keys, the same on both sides of
  /// the link and across processes; two writes with one digest read as the same write.
  package static func digest(_ write: QueuedWrite) -> UInt64 {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let bytes = (try? encoder.encode(write)) ?? Data()
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes {
      hash ^= UInt64(b)
      hash &*= 0x100_0000_01b3
    }
    return hash
  }

  /// Encodes one line (no line break inside: JSON text escapes every control character). Keys
  /// are sorted: the same keys in the same order line after line is what ssh's compression
  /// takes best.
  package static func line(_ message: RemoteMessage) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    var bytes = (try? Array(encoder.encode(message))) ?? Array(#"{"broken":"unencodable"}"#.utf8)
    bytes.append(UInt8(ascii: "\n"))
    return bytes
  }

  /// Decodes one line; nil when it is not a message of this protocol.
  package static func message(_ line: [UInt8]) -> RemoteMessage? {
    try? JSONDecoder().decode(RemoteMessage.self, from: Data(line))
  }
}

/// What the device says first: who it is, the versions it speaks and what it offers.
package struct RemoteGreeting: Codable, Sendable, Hashable {
  /// The protocol versions the device speaks.
  package var versions: [Int]
  /// The calls it answers (``RemoteWire/offers``); a call not named is never asked.
  package var offers: [String]
  /// The device's `verdicts --version`.
  package var program: String
  /// The store it opened.
  package var store: String
  /// Whether it holds the writer role, and if not, why.
  package var handle: Handle
  /// Whether it refuses every action (`serve --read-only`).
  package var readOnly: Bool
  /// The instance it talks to (never the key).
  package var instance: String?

  package init(
    versions: [Int], offers: [String], program: String, store: String, handle: Handle, readOnly: Bool, instance: String?
  ) {
    self.versions = versions
    self.offers = offers
    self.program = program
    self.store = store
    self.handle = handle
    self.readOnly = readOnly
    self.instance = instance
  }
}

/// One line on the link: a greeting, a call, its answer, or news the device sends unasked.
package struct RemoteMessage: Codable, Sendable {
  /// The device's first line.
  package var greeting: RemoteGreeting?
  /// A call's number (the client counts from 1); its answer carries it back.
  package var id: Int?
  /// A call.
  package var call: RemoteCall?
  /// A call's answer.
  package var value: RemoteValue?
  /// A call's failure.
  package var failure: RemoteFailure?
  /// A change of the queue (the queue's change stream).
  package var change: Change?
  /// News of a held drain (``QueueSource/updates()``).
  package var update: Update?
  /// The store's files were touched: the file's state now.
  package var file: StoreFileState?

  package init(
    greeting: RemoteGreeting? = nil, id: Int? = nil, call: RemoteCall? = nil, value: RemoteValue? = nil,
    failure: RemoteFailure? = nil, change: Change? = nil, update: Update? = nil, file: StoreFileState? = nil
  ) {
    self.greeting = greeting
    self.id = id
    self.call = call
    self.value = value
    self.failure = failure
    self.change = change
    self.update = update
    self.file = file
  }
}

/// Why a call failed on the device: the queue's own error where there is one, else words.
package struct RemoteFailure: Codable, Sendable, Error {
  /// The queue's error, as the device's queue threw it.
  package var queue: QueueError?
  /// What went wrong, in words.
  package var message: String
}

/// A call the screen makes of the device: one of ``QueueSource``'s.
package enum RemoteCall: Codable, Sendable {
  case page(pane: QueuePane, offset: Int, limit: Int, filter: String?, order: PaneOrder)
  case status
  case write(id: String)
  case shownWrite(id: String)
  case release(id: String)
  case releaseReason(reason: BlockedReason)
  case releaseIDs(ids: [String])
  case withdraw(id: String)
  case discard(id: String)
  case takeAnswered
  case forgetAnswered(ids: [String])
  case undo(id: String)
  case drain
  case useKey(key: String)
  case fill
  case lastRelease
  case undoRelease(batch: Int)
  case summaries(pane: QueuePane, cursor: Int, limit: Int)
  case locate(id: String, filter: String?, limit: Int, order: PaneOrder)
  case changed(since: Int?)
  case writer
  case lastDrainEndedAt
  case history(limit: Int)
  case attempts(id: String)
  case departedWrite(id: String)
  case blockedCounts
  case resolveID(typed: String)
  /// Starts (or stops) sending ``RemoteMessage/update`` news: the device holds its updates.
  case followUpdates(on: Bool)
  /// Starts sending ``RemoteMessage/file`` news.
  case followFiles
  /// A page, each write the screen already holds unchanged (`known`: its id and digest, from
  /// its last page of this pane) sent as a reference: only what changed crosses the link.
  case pageRows(
    pane: QueuePane, offset: Int, limit: Int, filter: String?, order: PaneOrder, known: [String: UInt64])
  /// `pageRows` as a pane's rows need it: `known` is the screen's last page of this pane in
  /// order; a write it holds unchanged is named by its place there, and any other crosses as
  /// its summary (``SummaryRow``), with nothing that holds its default, and no digest.
  case pageSummaries(
    pane: QueuePane, offset: Int, limit: Int, filter: String?, order: PaneOrder, known: [KnownRow])

  /// The call's name in ``RemoteWire/offers``.
  package var name: String {
    switch self {
    case .page: "page"
    case .status: "status"
    case .write: "write"
    case .shownWrite: "shown_write"
    case .release: "release"
    case .releaseReason: "release_reason"
    case .releaseIDs: "release_ids"
    case .withdraw: "withdraw"
    case .discard: "discard"
    case .takeAnswered: "take_answered"
    case .forgetAnswered: "forget_answered"
    case .undo: "undo"
    case .drain: "drain"
    case .useKey: "use_key"
    case .fill: "fill"
    case .lastRelease: "last_release"
    case .undoRelease: "undo_release"
    case .summaries: "summaries"
    case .locate: "locate"
    case .changed: "changed"
    case .writer: "writer"
    case .lastDrainEndedAt: "last_drain_ended_at"
    case .history: "history"
    case .attempts: "attempts"
    case .departedWrite: "departed_write"
    case .blockedCounts: "blocked_counts"
    case .resolveID: "resolve_id"
    case .followUpdates: "follow_updates"
    case .followFiles: "follow_files"
    case .pageRows: "page_rows"
    case .pageSummaries: "page_summaries"
    }
  }

  /// Whether the call changes the queue (refused by `serve --read-only`).
  package var acts: Bool {
    switch self {
    case .release, .releaseReason, .releaseIDs, .withdraw, .discard, .takeAnswered, .forgetAnswered, .undo, .drain,
      .useKey, .fill, .undoRelease, .followUpdates:
      true
    default: false
    }
  }
}

/// A call's answer.
package enum RemoteValue: Codable, Sendable {
  case page(QueuePage)
  case status(Status)
  case write(QueuedWrite)
  case flag(Bool)
  case count(Int)
  case outcomes([ReleaseOutcome])
  case writes([QueuedWrite])
  case undo(UndoOutcome)
  case summaries(writes: [QueuedWrite], next: Int)
  case located(pane: QueuePane?, index: Int)
  case changed(ChangedWrites?)
  case writer(WriterRecord?)
  case text(String?)
  case history([DrainRecord])
  case attempts(WriteAttempts?)
  case departed(DepartedWrite?)
  case counts([BlockedReason: Int])
  case report(DrainReport)
  case release(ReleaseBatch?)
  case releaseUndo(ReleaseUndo)
  case rows(pane: QueuePane, offset: Int, total: Int, rows: [PageRow])
  case summaryRows(pane: QueuePane, offset: Int, total: Int, rows: [SummaryRow])
  case done
}

/// A write the screen holds, as a ``RemoteCall/pageSummaries(pane:offset:limit:filter:order:known:)``
/// call names it: its id and the digest of its summary as the screen read it.
package struct KnownRow: Codable, Sendable, Equatable {
  package var id: String
  package var digest: UInt64

  package init(id: String, digest: UInt64) {
    self.id = id
    self.digest = digest
  }
}

/// One row of a ``RemoteValue/rows(pane:offset:total:rows:)`` answer.
package enum PageRow: Codable, Sendable {
  /// A write the screen holds as it is (by id).
  case same(String)
  /// A write the screen does not hold, or holds changed, with its digest.
  case write(QueuedWrite, digest: UInt64)
}
