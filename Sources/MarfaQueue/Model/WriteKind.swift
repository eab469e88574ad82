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

  /// Whether a refused write of this kind keeps its content until discarded: a body a person
  /// wrote, or an upload's bytes.
  package var carriesContent: Bool {
    switch self {
    case .createItem, .updateItem, .replaceMetadata, .mergeMetadata, .writeExtension, .createEdge, .updateEdge,
      .uploadBlob:
      return true
    default:
      return false
    }
  }

  /// Whether this kind writes an edge rather than an item.
  package var isEdgeWrite: Bool { self == .createEdge || self == .updateEdge || self == .deleteEdge }

  /// Words for a person: `create item`.
  public var words: String { rawValue.replacing("_", with: " ") }
}
