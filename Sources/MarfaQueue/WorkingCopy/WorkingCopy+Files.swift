extension WorkingCopy {
  /// The writes that add a file: its upload, the file item naming its bytes (waiting on the
  /// upload), and, for an attachment, the `attached-to` edge from the file item to the item it
  /// is attached to (waiting on the file item).
  public struct FileWrites: Sendable {
    /// The upload of the file's bytes.
    public var upload: QueuedWrite
    /// The file item.
    public var item: QueuedWrite
    /// The edge to the item the file is attached to; nil for a file added on its own.
    public var edge: QueuedWrite?
    /// The tags queued on the file item, each a write of its own.
    public var tags: [QueuedWrite]
  }

  /// How a file is added: what the file item is called and typed, and where it goes.
  public struct FileOptions: Sendable {
    /// The bytes' MIME type.
    public var mimeType: String
    /// The file item's title; the file's own name when nil.
    public var title: String?
    /// The file item's type; `core.file.image` for an image, else `core.file`, when nil.
    public var type: String?
    /// The file item's tier; the instance's default when nil.
    public var tier: String?
    /// Tags queued on the file item.
    public var tags: [String]

    /// Options for a file of this MIME type.
    public init(mimeType: String, title: String? = nil, type: String? = nil, tier: String? = nil, tags: [String] = []) {
      self.mimeType = mimeType
      self.title = title
      self.type = type
      self.tier = tier
      self.tags = tags
    }
  }

  /// Queues the file at `path` attached to the item `target`: an upload, a file item and an
  /// `attached-to` edge, each waiting on the one before.
  ///
  /// - Throws: ``QueueError/notFound(id:)`` when the copy does not hold `target` outside the
  ///   bin (nothing is queued); what ``putBlob(file:mimeType:)`` throws.
  public func attach(file path: String, to target: String, _ options: FileOptions) async throws -> FileWrites {
    try Self.requireNonEmpty(target, "the item id")
    guard let held = try await item(id: target), held["state"]?.stringValue != "trashed" else {
      throw QueueError.notFound(id: target)
    }
    var writes = try await addFile(path, options)
    writes.edge = try await createEdge(
      source: writes.item.itemId ?? "", target: target, type: "attached-to", properties: .object([]))
    return writes
  }

  /// Queues the file at `path` as an item of its own: an upload and a file item naming its bytes
  /// (waiting on the upload), and a write per tag (waiting on the file item).
  public func addFile(_ path: String, _ options: FileOptions) async throws -> FileWrites {
    try requireWriter()
    if let type = options.type { try Self.requireNonEmpty(type, "the type") }
    let upload = try await putBlob(file: path, mimeType: options.mimeType)
    let type = options.type ?? (options.mimeType.hasPrefix("image/") ? "core.file.image" : "core.file")
    let properties = JSONValue.object([
      ("blob_ref", .string(upload.blob ?? "")), ("mime_type", .string(options.mimeType)),
      ("title", .string(options.title ?? path.lastPathPart)),
    ])
    let item = try await createItem(
      type: type, properties: properties, id: nil, source: nil, sourceId: nil, tier: options.tier, version: nil,
      waitingOn: [upload.id])
    var tags: [QueuedWrite] = []
    for tag in options.tags { tags.append(try await addTag(item: item.itemId ?? "", tag: tag)) }
    return FileWrites(upload: upload, item: item, edge: nil, tags: tags)
  }
}
