/// Every command the tree can run; groups such as `items` have none of their own.
enum CommandID: String, Sendable, Hashable, CaseIterable {
  case tui, watch, demo, instance, serve, fleet
  case fill, catchUp, status, queue, show, drain, history, log
  case release, withdraw, discard, forget, takeAnswered
  case departed, undo, report, metrics
  case configCheck
  case itemsCreate, itemsUpdate, itemsDelete, itemsRestore, itemsTransition
  case edgesCreate, edgesUpdate, edgesDelete
  case itemsGet, itemsList, edgesList, edgesTo
  case tagsAdd, tagsRemove
  case metadataReplace, metadataMerge
  case extensionsWrite, extensionsDelete
  case blobsPut
  case itemsAttach, itemsAdd
  case hold
  case completion, complete, manual

  /// Whether the command may create a missing store: only those that queue a write or fill.
  var createsStore: Bool {
    switch self {
    case .itemsCreate, .itemsUpdate, .itemsDelete, .itemsRestore, .itemsTransition, .edgesCreate, .edgesUpdate,
      .edgesDelete, .tagsAdd, .tagsRemove, .metadataReplace, .metadataMerge, .extensionsWrite, .extensionsDelete,
      .blobsPut, .itemsAttach, .itemsAdd, .fill:
      return true
    default:
      return false
    }
  }

}
