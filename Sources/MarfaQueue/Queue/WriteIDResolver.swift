/// Turns a write ID as a person types it into the one ID the queue holds.
///
/// Takes the full ID; the short form a list shows (`…43da8578`, with or without the ellipsis,
/// `~` as `--ascii` draws it, or `...`); any prefix or suffix of at least ``minimumPart`` characters that only
/// one write has. Letters compare case-insensitively; spaces around the ID are ignored.
public struct WriteIDResolver: Sendable {
  /// What a typed ID names.
  public enum Resolution: Sendable, Hashable {
    /// Exactly one write: its full ID.
    case found(String)
    /// More than one write (the full IDs, in the order given).
    case ambiguous([String])
    /// No write; the closest IDs the queue holds, best first (maybe none).
    case unknown(closest: [String])
  }

  /// The fewest characters a part of an ID must have to name a write.
  package static let minimumPart = 6
  /// How many IDs an ambiguous or unknown answer lists at most.
  public static let listed = 5
  /// The longest typed text the nearest IDs are looked for (the CLI takes IDs of at most 256
  /// bytes): past it no ID is suggested, so a long paste costs no edit distances.
  static let longestSuggested = 256

  /// The IDs to choose among.
  let ids: [String]

  /// A resolver over these IDs (the queue's, in send order).
  public init(ids: [String]) { self.ids = ids }

  /// What `typed` names among the IDs.
  public func resolve(_ typed: String) -> Resolution {
    let part = Self.typedPart(typed)
    let wanted = part.text.lowercased()
    if let exact = ids.first(where: { $0.lowercased() == wanted }) { return .found(exact) }
    guard wanted.count >= Self.minimumPart else { return .unknown(closest: []) }
    let matches = ids.filter { id in
      let lower = id.lowercased()
      switch part.side {
      case .prefix: return lower.hasPrefix(wanted)
      case .suffix: return lower.hasSuffix(wanted)
      case .either: return lower.hasPrefix(wanted) || lower.hasSuffix(wanted)
      }
    }
    switch matches.count {
    case 0: return .unknown(closest: closest(to: wanted))
    case 1: return .found(matches[0])
    default: return .ambiguous(matches)
    }
  }

  /// The queue error a resolution that names no single write means, or the ID it names.
  public func id(for typed: String) throws -> String {
    switch resolve(typed) {
    case .found(let id): return id
    case .ambiguous(let matches): throw QueueError.ambiguousID(typed: typed, matches: matches)
    case .unknown(let closest): throw QueueError.unknownID(typed: typed, closest: closest)
    }
  }

  /// Which end of an ID a typed part stands for.
  enum Side { case prefix, suffix, either }

  /// The typed text without spaces and ellipses, and the end of the ID the ellipsis puts it at.
  static func typedPart(_ typed: String) -> (text: String, side: Side) {
    var text = Substring(typed.trimmingSpaces)
    var side = Side.either
    for mark in ["…", "...", "~"] {
      if text.hasPrefix(mark) {
        text = text.dropFirst(mark.count)
        side = .suffix
      } else if text.hasSuffix(mark) {
        text = text.dropLast(mark.count)
        side = .prefix
      }
    }
    return (String(text), side)
  }

  /// Up to ``listed`` IDs nearest to `wanted`: by the fewest edits between it and the ID's end
  /// (or start) of the same length, at most a third of its length (at least 2); none for a text
  /// longer than ``longestSuggested``.
  func closest(to wanted: String) -> [String] {
    let w = Array(wanted.unicodeScalars)
    guard !w.isEmpty, w.count <= Self.longestSuggested else { return [] }
    let limit = max(2, w.count / 3)
    var scored: [(distance: Int, index: Int)] = []
    for (i, id) in ids.enumerated() {
      let lower = Array(id.lowercased().unicodeScalars)
      let n = min(lower.count, w.count)
      let ends = [Array(lower.suffix(n)), Array(lower.prefix(n))]
      let d = ends.map { EditDistance.between(w, $0) }.min() ?? Int.max
      if d <= limit { scored.append((d, i)) }
    }
    scored.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }
    return scored.prefix(Self.listed).map { ids[$0.index] }
  }
}

extension String {
  /// The string without leading and trailing spaces, tabs and newlines.
  fileprivate var trimmingSpaces: String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
      let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return "" }
    return String(scalars[first...last])
  }
}
