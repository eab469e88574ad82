/// The parts of an instance's refusal, or the reason the drain refused a write itself.
public struct Refusal: Sendable, Codable, Hashable {
  /// The instance's code verbatim, `unknown` when it named none, `trashed`, or the drain's sentence.
  public var reason: String
  /// `error.code` from the envelope; nil for a refusal the drain made.
  public var code: String?
  /// `error.message` from the envelope.
  public var message: String?
  /// The fields the instance would not take (`details.errors`).
  public var fields: [FieldRefusal]
  /// Whether the row is in the bin and can be restored.
  public var trashed: Bool
  /// The grant the key lacks.
  public var grant: MissingGrant?

  /// Creates a refusal.
  public init(
    reason: String, code: String? = nil, message: String? = nil, fields: [FieldRefusal] = [],
    trashed: Bool = false, grant: MissingGrant? = nil
  ) {
    self.reason = reason
    self.code = code
    self.message = message
    self.fields = fields
    self.trashed = trashed
    self.grant = grant
  }
}

/// One field an instance refused, with its message.
public struct FieldRefusal: Sendable, Codable, Hashable {
  /// The field's name or path.
  public var field: String
  /// Why it was refused; empty when the instance said nothing.
  public var message: String

  /// Creates a field refusal.
  public init(field: String, message: String = "") {
    self.field = field
    self.message = message
  }
}

/// A grant the key lacks, from `details.grant`.
public struct MissingGrant: Sendable, Codable, Hashable {
  /// What the grant is on.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    case type
    case edgeType = "edge_type"
    case `extension`
  }
  /// What the grant allows.
  public enum Level: String, Sendable, Hashable, Codable, CaseIterable {
    case read, write
  }

  /// What the grant is for.
  public var kind: Kind
  /// The name of the namespace or type the grant covers.
  public var name: String
  /// What the grant allows.
  public var level: Level

  /// Creates a missing grant.
  public init(kind: Kind, name: String, level: Level) {
    self.kind = kind
    self.name = name
    self.level = level
  }
}
