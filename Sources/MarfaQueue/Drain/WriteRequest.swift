import FoundationEssentials
import Glibc

/// The request a queued write is sent as (contract 6.2).
struct WriteRequest: Sendable {
  var method: String
  var path: String
  var query: [(String, String)] = []
  var body: [UInt8]
  /// An upload's bytes, sent from their file as they are read (a blob may be gigabytes): its
  /// path and size. Nil for every other write, whose body is ``body``.
  var bodyFile: BodyFile?
  var contentType = "application/json"
  var sendsKey = true

  /// Builds the request for a write; throws ``QueueError/invalid(message:)`` when it cannot be made.
  init(_ w: QueuedWrite, blobFolder: String) throws {
    func seg(_ s: String?) throws -> String {
      guard let s else { throw QueueError.invalid(message: "the write names no row") }
      return try WriteRequest.segment(s)
    }
    body = Array(w.body.text.utf8)
    switch w.kind {
    case .createItem:
      method = "POST"
      path = "/items"
    case .updateItem:
      method = "PATCH"
      path = "/items/\(try seg(w.itemId))"
      query = [("conflict", "auto")]
    case .deleteItem:
      method = "DELETE"
      path = "/items/\(try seg(w.itemId))"
      query = [("version", String(w.baseVersion ?? 0))]
    case .restoreItem:
      method = "POST"
      path = "/items/\(try seg(w.itemId))/restore"
    case .transitionItem:
      method = "POST"
      path = "/items/\(try seg(w.itemId))/transition"
    case .createEdge:
      method = "POST"
      path = "/edges"
    case .updateEdge:
      method = "PATCH"
      path = "/edges/\(try seg(w.edgeId))"
    case .deleteEdge:
      method = "DELETE"
      path = "/edges/\(try seg(w.edgeId))"
    case .replaceMetadata:
      method = "PUT"
      path = "/items/\(try seg(w.itemId))/metadata"
    case .mergeMetadata:
      method = "PATCH"
      path = "/items/\(try seg(w.itemId))/metadata"
    case .addTag:
      method = "POST"
      path = "/items/\(try seg(w.itemId))/tags"
    case .removeTag:
      method = "DELETE"
      path = "/items/\(try seg(w.itemId))/tags/\(try seg(w.tag))"
    case .writeExtension:
      method = "PUT"
      path = "/items/\(try seg(w.itemId))/extensions/\(try seg(w.namespace))"
    case .deleteExtension:
      method = "DELETE"
      path = "/items/\(try seg(w.itemId))/extensions/\(try seg(w.namespace))"
    case .uploadBlob:
      method = "POST"
      path = "/blobs"
      sendsKey = false
      contentType = w.body["mime_type"]?.stringValue ?? "application/octet-stream"
      // A type no header can carry makes no request: the write is counted, as the contract
      // counts a request that cannot be made, and never sent.
      guard !contentType.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
        throw QueueError.invalid(message: "the upload's type holds a line break, so no request can carry it")
      }
      guard let hash = w.blob else { throw QueueError.invalid(message: "the upload names no bytes") }
      // The bytes are checked against their hash before they go, never followed through a
      // link; what is sent is the very file checked (its device, inode and size).
      let file = BlobFolder.hex(of: hash)
      switch BlobFolder(path: blobFolder).check(file) {
      case .missing:
        throw WriteRequest.BytesMissing(hash: hash)
      case .damaged(let why):
        throw WriteRequest.BytesDamaged(hash: hash, why: why)
      case .intact(let identity, let size):
        body = []
        bodyFile = BodyFile(path: blobFolder + "/" + file, size: size, identity: identity)
      }
    }
  }

  /// The characters a path segment carries as they are (RFC 3986 unreserved, ASCII only);
  /// every other byte of its UTF-8 goes percent-encoded.
  static let unreserved = PercentEncodingSet.unreserved

  /// One path segment as it goes on the wire; refuses `.`, `..` and an empty one, which a
  /// server reads as a step in the path (the write would go to another endpoint, with its key).
  static func segment(_ text: String) throws -> String {
    if let problem = segmentProblem(text) { throw QueueError.invalid(message: problem) }
    return text.percentEncoded(keeping: unreserved)
  }

  /// Why `text` cannot be a path segment (an id, a tag, a namespace), or nil.
  static func segmentProblem(_ text: String) -> String? {
    if text.isEmpty {
      return "an id, tag or namespace cannot be empty: it would leave an empty step in the request path"
    }
    if text == "." || text == ".." {
      return "an id, tag or namespace cannot be '\(text)': it would name another place in the instance's paths"
    }
    return nil
  }

  /// The bytes of an upload are no longer held beside the store.
  struct BytesMissing: Error { var hash: String }

  /// What is held beside the store under an upload's hash is not its bytes (a link, another
  /// file, other bytes); why, in words.
  struct BytesDamaged: Error {
    var hash: String
    var why: String
  }

  /// The drain's reason for refusing unsent an upload whose bytes are not the ones queued.
  static func damagedReason(_ damaged: BytesDamaged) -> String {
    "the bytes of \(damaged.hash) beside the working copy are not the bytes queued (\(damaged.why)), so they were not sent; put the file again, then release this write"
  }

  /// The full URL under `origin`.
  func url(origin: String) -> URL? {
    var text = origin.hasSuffix("/") ? String(origin.dropLast()) : origin
    text += path
    if !query.isEmpty {
      text +=
        "?"
        + query.map { "\($0.0)=\($0.1.percentEncoded(keeping: .queryAllowed))" }
        .joined(separator: "&")
    }
    // A drain sends every create (and every write to one row) to the same URL: the last one
    // made is kept, so it is not parsed again for each.
    if let kept = Self.lastURL.withLock({ $0?.text == text ? $0?.url : nil }) { return kept }
    guard let url = URL(string: text) else { return nil }
    Self.lastURL.withLock { $0 = (text, url) }
    return url
  }

  /// The last URL ``url(origin:)`` made, with its text.
  private static let lastURL = Mutex<(text: String, url: URL)?>(nil)
}
