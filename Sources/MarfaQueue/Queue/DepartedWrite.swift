import FoundationEssentials

/// A write that left the queue (discarded, withdrawn, forgotten or taken), kept whole in the
/// store's archive: its row as it was, when it left, why, and the process that took it out.
public struct DepartedWrite: Sendable, Codable {
  /// The write exactly as the queue held it when it left.
  public var write: QueuedWrite
  /// Why it left.
  public var departure: Departure
  /// When it left.
  public var departedAt: Date
  /// The program that took it out (`verdicts`, or the app embedding `MarfaQueue`); nil when not kept.
  public var program: String?
  /// What that program ran as (`tui`, `discard`, `library`, …); nil when not kept.
  public var mode: String?
  /// Its process id; nil when not kept.
  public var pid: Int?
  /// The host it ran on; nil when not kept.
  public var host: String?
  /// The bytes the archive holds for it.
  public var bytes: Int
  /// Its place in the send order (the queue's `seq`): an undo puts it back there.
  public var seq: Int

  /// Creates a record of a departed write (the store makes them; sources that keep none may too).
  public init(
    write: QueuedWrite, departure: Departure, departedAt: Date, program: String? = nil, mode: String? = nil,
    pid: Int? = nil, host: String? = nil, bytes: Int = 0, seq: Int = 0
  ) {
    self.write = write
    self.departure = departure
    self.departedAt = departedAt
    self.program = program
    self.mode = mode
    self.pid = pid
    self.host = host
    self.bytes = bytes
    self.seq = seq
  }

  /// The write's id.
  public var id: String { write.id }

  /// Who took it out, as one phrase: `verdicts (tui, pid 4211 on host-a)`, or `an unknown process`.
  public var byText: String {
    guard let program else { return "an unknown process" }
    var parts: [String] = []
    if let mode { parts.append(mode) }
    if let pid { parts.append("pid \(pid)" + (host.map { $0.isEmpty ? "" : " on \($0)" } ?? "")) }
    return parts.isEmpty ? program : "\(program) (\(parts.joined(separator: ", ")))"
  }
}
