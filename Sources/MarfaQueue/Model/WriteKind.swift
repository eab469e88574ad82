/// The closed set of fifteen kinds of queued write.
public enum WriteKind: String, Sendable, Hashable, CaseIterable, Codable {
  case createItem = "create_item"
  case updateItem = "update_item"
  case deleteItem = "delete_item"
  case restoreItem = "restore_item"
  case transitionItem = "transition_item"
  case createEdge = "create_edge"
  case updateEdge = "update_edge"
  case deleteEdge = "delete_edge"
  case replaceMetadata = "replace_metadata"
  case mergeMetadata = "merge_metadata"
  case addTag = "add_tag"
  case removeTag = "remove_tag"
  case writeExtension = "write_extension"
  case deleteExtension = "delete_extension"
  case uploadBlob = "upload_blob"

  /// The contract's snake_case name.
  public var wireName: String { rawValue }

  /// Whether a refused write of this kind keeps its content until discarded.
  package var carriesContent: Bool {
    switch self {
    case .createItem, .updateItem, .replaceMetadata, .mergeMetadata, .writeExtension, .createEdge, .updateEdge:
      return true
    default:
      return false
    }
  }

  /// Whether this kind writes an edge rather than an item.
  package var isEdgeWrite: Bool { self == .createEdge || self == .updateEdge || self == .deleteEdge }

  /// The kind as an SQL string literal: `'update_item'`.
  var sql: String { "'\(rawValue)'" }

  /// Kinds as an SQL list for `IN (…)`: `'update_item','delete_item'`.
  static func sqlList(_ kinds: [WriteKind]) -> String { kinds.map(\.sql).joined(separator: ",") }

  /// A test that `column` holds one of `kinds`, each named (`(kind = 'a' OR kind = 'b')`): for a
  /// statement that runs per write, where SQLite would build an `IN` list of more than two
  /// constants into a temporary index every time it runs.
  static func sqlOneOf(_ column: String, _ kinds: [WriteKind]) -> String {
    "(" + kinds.map { "\(column) = \($0.sql)" }.joined(separator: " OR ") + ")"
  }

  /// Words for a person: `create item`.
  public var words: String { rawValue.replacing("_", with: " ") }
}
