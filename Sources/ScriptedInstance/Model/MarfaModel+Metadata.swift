import Digest

extension MarfaModel {
  /// How a metadata endpoint changes the tags.
  enum TagChange {
    case replace([String])
    case add([String])
    case remove(String)
  }

  /// The metadata and tag endpoints: tags change, the version does not; answers `{metadata}`.
  mutating func changeTags(_ id: String, _ change: TagChange) -> ModelAnswer {
    guard var item = items[id] else { return .itemNotFound(id) }
    if item.state == "trashed" { return .itemNotFound(id, trashed: true) }
    switch change {
    case .replace(let tags): item.tags = Self.unique(tags)
    case .add(let tags): item.tags = Self.unique(item.tags + tags)
    case .remove(let tag): item.tags.removeAll { $0 == tag }
    }
    items[id] = item
    logItem("item.metadata_updated", item)
    return .ok(["metadata": item.metadataJSON])
  }

  /// `PUT|DELETE /items/{id}/extensions/{ns}`: answers `{extensions}`.
  mutating func setExtension(_ id: String, namespace: String, to value: ScriptedJSON?) -> ModelAnswer {
    guard var item = items[id] else { return .itemNotFound(id) }
    if item.state == "trashed" { return .itemNotFound(id, trashed: true) }
    item.extensions[namespace] = value
    items[id] = item
    logItem("item.metadata_updated", item)
    return .ok(["extensions": .object(item.extensions)])
  }

  /// `POST /blobs`: the bytes kept under their SHA-256; answers 201 `{hash, mime_type, size_bytes}`,
  /// `hash` named as the contract names bytes, `sha256:<hex>`.
  mutating func putBlob(_ bytes: [UInt8], mimeType: String) -> ModelAnswer {
    let hash = "sha256:" + SHA256.hex(bytes)
    blobs[hash] = Blob(mimeType: mimeType, bytes: bytes)
    return .ok(
      ["hash": .string(hash), "mime_type": .string(mimeType), "size_bytes": .number(Double(bytes.count))], status: 201)
  }

  /// The tags with repeats removed, first one kept.
  private static func unique(_ tags: [String]) -> [String] {
    var seen: Set<String> = []
    return tags.filter { seen.insert($0).inserted }
  }
}
