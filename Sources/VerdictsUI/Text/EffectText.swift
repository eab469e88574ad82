import MarfaQueue

/// What the app says of its queue calls: an effect's name, why a write was left alone, an error
/// as one sentence (the instance's text through the Sanitizer).
enum EffectText {
  /// Why the engine's rule left a write alone, in its words: `w-1 is accepted; only …`.
  static func why(_ action: WriteAction, _ w: QueuedWrite) -> String {
    "\(ShortID.of(w.id)) \(w.allows(action).obstacle?.predicate ?? "has a waiting write that depends on it")"
  }

  /// Why a batch release left a write alone, from its result.
  static func why(_ action: WriteAction, _ outcome: ReleaseOutcome) -> String {
    switch outcome.result {
    case .notAllowed(let obstacle): return "\(ShortID.of(outcome.id)) \(obstacle.predicate)"
    case .notFound, .released: return "\(ShortID.of(outcome.id)) is gone"
    }
  }

  /// Why an action left the write with this id alone, read again from the source.
  static func whyNot(_ action: WriteAction, _ id: String, in source: QueueSource) async -> String {
    guard let w = try? await source.write(id) else { return "\(ShortID.of(id)) is gone" }
    return why(action, w)
  }

  /// An effect's name for logs and messages (never a key).
  static func name(_ effect: UIEffect) -> String {
    switch effect {
    case .release(let ids): return "release \(ids.count)"
    case .releaseReason(let r): return "release \(r.wireName)"
    case .withdraw: return "withdraw"
    case .discard: return "discard"
    case .take: return "take"
    case .forget: return "forget"
    case .undo(let offer): return "undo \(offer.action)"
    case .drain: return "drain"
    case .fill: return "fill"
    case .useKey: return "key"
    case .locate: return "follow"
    case .reorder: return "sort"
    case .goto: return "go to"
    case .countReasons: return "count reasons"
    case .loadHistory: return "history"
    case .examples: return "list the first writes"
    case .copy: return "copy"
    case .export: return "export"
    case .markAll: return "mark all"
    case .reload: return "read"
    case .loadStatus: return "status"
    case .toggleAutoDrain: return "auto-drain"
    case .repaint: return "repaint"
    case .quit: return "quit"
    }
  }

  /// A queue error as one sentence.
  /// What a refused drain's message adds where the screen has the way out: a copy to fill
  /// again is `d`'s next offer.
  static func wayForward(_ effect: UIEffect, _ error: Error) -> String {
    guard effect == .drain, let q = error as? QueueError else { return "" }
    switch q {
    case .copyExpired, .hydrationIncomplete, .noCursor: return " · d fills it again (asks first)"
    default: return ""
    }
  }

  static func describe(_ error: Error) -> String {
    if let q = error as? QueueError { return Sanitizer.clean(q.message) }
    return Sanitizer.clean(String(describing: error))
  }

  /// What a batch action says when it ends: `withdrew …6cdf068b` for one, `withdrew 2` for
  /// several, `withdrew 1 of 2 (…b not withdrawn (why))` when some stayed, and for none the
  /// first refusal (`withdraw: …b not withdrawn (why)`).
  static func batch(_ past: String, _ verb: String, done: [String], of asked: Int, refused: String?) -> String {
    if done.isEmpty { return "\(verb): \(refused ?? "nothing was done")" }
    let what = asked == 1 ? ShortID.of(done[0]) : "\(done.count)"
    guard done.count < asked else { return "\(past) \(what)" }
    return "\(past) \(done.count) of \(asked)" + (refused.map { " (\($0))" } ?? "")
  }
}
