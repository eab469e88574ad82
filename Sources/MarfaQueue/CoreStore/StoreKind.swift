/// Which program's store a file is: this project's own, or the Marfa core's.
public enum StoreKind: Sendable, Codable, Hashable, CustomStringConvertible {
  /// A store this project's engine wrote (it reads and writes it).
  case verdicts(schemaVersion: Int)
  /// A store the Marfa core wrote (the `marfa` command line, an app on a binding): read only.
  case marfaCore(schemaVersion: String)

  /// Whether this project may write the store.
  public var isOwned: Bool {
    if case .verdicts = self { return true }
    return false
  }

  /// In words, e.g. `Marfa core store (schema 0)`.
  public var description: String {
    switch self {
    case .verdicts(let v): return "verdicts store (schema \(v))"
    case .marfaCore(let v): return "Marfa core store (schema \(v))"
    }
  }

  /// The short name `--json status` gives it: `verdicts` or `marfa_core`.
  public var wireName: String {
    switch self {
    case .verdicts: return "verdicts"
    case .marfaCore: return "marfa_core"
    }
  }
}
