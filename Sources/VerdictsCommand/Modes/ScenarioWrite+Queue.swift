import MarfaQueue
import ScriptedInstance

extension ScenarioWrite {
  /// Queues this write through the working copy, as a person's command would.
  func queue(on copy: WorkingCopy) async throws -> QueuedWrite {
    func object(_ text: String?) throws -> JSONValue {
      guard let text else { return .object([]) }
      guard let value = JSONValue.parse(text), case .object = value else {
        throw QueueError.invalid(message: "the scenario's JSON for \(kind) is not an object: \(text)")
      }
      return value
    }
    func need(_ value: String?, _ what: String) throws -> String {
      guard let value else { throw QueueError.invalid(message: "the scenario's \(kind) names no \(what)") }
      return value
    }
    switch WriteKind(rawValue: kind) {
    case .createItem:
      return try await copy.createItem(type: try need(type, "type"), properties: try object(properties), id: itemId)
    case .updateItem:
      return try await copy.updateItem(
        id: try need(itemId, "item"), properties: try object(properties), version: version, asRead: true)
    case .deleteItem:
      return try await copy.deleteItem(id: try need(itemId, "item"), version: version)
    case .restoreItem:
      return try await copy.restoreItem(id: try need(itemId, "item"))
    case .transitionItem:
      return try await copy.transitionItem(id: try need(itemId, "item"), state: try need(state, "state"))
    case .createEdge:
      return try await copy.createEdge(
        source: try need(itemId, "source"), target: try need(targetId, "target"), type: try need(edgeType, "edge type"),
        properties: try object(properties), id: edgeId)
    case .updateEdge:
      return try await copy.updateEdge(
        id: try need(edgeId, "edge"), properties: try object(properties), version: version)
    case .deleteEdge:
      return try await copy.deleteEdge(id: try need(edgeId, "edge"))
    case .replaceMetadata, .mergeMetadata:
      return try await copy.writeMetadata(
        item: try need(itemId, "item"), tags: tags ?? [], replace: kind == "replace_metadata")
    case .addTag:
      return try await copy.addTag(item: try need(itemId, "item"), tag: try need(tag, "tag"))
    case .removeTag:
      return try await copy.removeTag(item: try need(itemId, "item"), tag: try need(tag, "tag"))
    case .writeExtension:
      return try await copy.writeExtension(
        item: try need(itemId, "item"), namespace: try need(namespace, "namespace"), body: try object(body))
    case .deleteExtension:
      return try await copy.deleteExtension(item: try need(itemId, "item"), namespace: try need(namespace, "namespace"))
    case .uploadBlob:
      return try await copy.putBlob(Array((content ?? "").utf8), mimeType: mimeType ?? "application/octet-stream")
    case nil:
      throw QueueError.invalid(message: "the scenario names an unknown kind \(kind)")
    }
  }
}
