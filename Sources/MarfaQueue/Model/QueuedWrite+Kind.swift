/// A write's kind as a person reads it, including a kind this build does not know.
extension QueuedWrite {
  /// The kind's wire name (`create_item`); for a kind this build does not know,
  /// `unreadable:<what the store holds>` (`unreadable` when it holds none).
  public var kindName: String { unknownKind.map(Self.unreadableName) ?? kind.wireName }

  /// The kind in words (`create item`); for a kind this build does not know,
  /// `unreadable kind '<what the store holds>'`.
  public var kindWords: String { unknownKind.map(Self.unreadableWords) ?? kind.words }

  /// How much of an unknown stored kind is shown (the store keeps it whole).
  static let shownKindScalars = 40

  /// `unreadable:<stored>`, the stored text cut to ``shownKindScalars``.
  static func unreadableName(_ stored: String) -> String {
    stored.isEmpty ? "unreadable" : "unreadable:\(shown(stored))"
  }

  /// `unreadable kind '<stored>'`, or `unreadable kind (none stored)`.
  static func unreadableWords(_ stored: String) -> String {
    stored.isEmpty ? "unreadable kind (none stored)" : "unreadable kind '\(shown(stored))'"
  }

  /// The stored text cut to ``shownKindScalars`` Unicode scalars, `…` where it was cut.
  static func shown(_ stored: String) -> String {
    let scalars = stored.unicodeScalars
    guard scalars.count > shownKindScalars else { return stored }
    return String(String.UnicodeScalarView(scalars.prefix(shownKindScalars))) + "…"
  }

  /// Why a drain refuses a write of a kind this build does not know, unsent.
  var unknownKindRefusal: String? {
    unknownKind.map { stored in
      let what = stored.isEmpty ? "no kind" : "the kind '\(Self.shown(stored))'"
      return "the store holds \(what) for this write, which this build does not know, so it was not sent"
    }
  }
}
