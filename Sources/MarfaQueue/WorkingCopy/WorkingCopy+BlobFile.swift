import Digest
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension WorkingCopy {
  /// How much of a file is read at a time when it is hashed and copied beside the store.
  static let blobChunk = 1 << 20

  /// Queues an upload of the file at `path`: hashed and copied beside the store a chunk at a
  /// time (a file of any size in constant memory), then queued like ``putBlob(_:mimeType:)``.
  ///
  /// - Throws: ``QueueError/invalid(message:)`` for a path that is not a readable regular file;
  ///   ``QueueError/storageFull(message:)`` when the copy finds the disk full (nothing is left
  ///   behind); ``QueueError/store(path:message:)`` for another failure to write it.
  public func putBlob(file path: String, mimeType: String) async throws -> QueuedWrite {
    try requireWriter()
    try Self.requireNonEmpty(mimeType, "the MIME type")
    let source = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard source >= 0 else {
      throw QueueError.invalid(message: "cannot read \(path): \(String(cString: strerror(errno)))")
    }
    defer { Glibc.close(source) }
    var st = Glibc.stat()
    guard Glibc.fstat(source, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
      throw QueueError.invalid(
        message: "cannot read \(path): it is \(StorePath.describe(st.st_mode & S_IFMT)), not a file")
    }
    let blobs = BlobFolder(path: store.blobFolder)
    let folder = try Self.ownFolder(blobs, store: store.path)
    defer { Glibc.close(folder) }
    let (incoming, target) = try blobs.makeIncoming(in: folder)
    var hasher = SHA256Hasher()
    var size = 0
    do {
      defer { Glibc.close(target) }
      var chunk = [UInt8](repeating: 0, count: Self.blobChunk)
      while true {
        let n = chunk.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress!, $0.count) }
        if n < 0 {
          if errno == EINTR { continue }
          throw QueueError.invalid(message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if n == 0 { break }
        try chunk.withUnsafeBytes { raw in
          let piece = UnsafeRawBufferPointer(rebasing: raw[0..<n])
          hasher.update(piece)
          var written = 0
          while written < n {
            let m = Glibc.write(target, piece.baseAddress! + written, n - written)
            if m < 0 && errno == EINTR { continue }
            guard m > 0 else { throw Self.writeFailure(m < 0 ? errno : EIO, path: blobs.path + "/" + incoming) }
            written += m
          }
        }
        size += n
      }
      guard Glibc.fsync(target) == 0 else { throw Self.writeFailure(errno, path: blobs.path + "/" + incoming) }
      guard size > 0 else {
        throw QueueError.invalid(
          message: "\(path) is empty: the instance holds no empty blob, so nothing was queued")
      }
    } catch {
      unlinkat(folder, incoming, 0)
      throw error
    }
    let hash = hasher.finishHex()
    try Self.keep(blobs, incoming: incoming, as: hash, in: folder, store: store.path)
    return try await enqueueUpload(hex: hash, mimeType: mimeType)
  }

  /// Opens (making it if need be) the store's blob folder as the store's own; a folder that is
  /// not (a link, another user's) is a store failure, and nothing is queued.
  static func ownFolder(_ blobs: BlobFolder, store: String) throws -> Int32 {
    do {
      guard let fd = try blobs.open(creating: true) else {
        throw QueueError.store(path: store, message: "the blob folder \(blobs.path) cannot be made")
      }
      return fd
    } catch let refusal as BlobFolder.Refusal {
      throw QueueError.store(path: store, message: refusal.message)
    }
  }

  /// Keeps bytes written to `incoming` under their hash (``BlobFolder/keep(incoming:as:in:)``);
  /// a name another file holds is a store failure, and nothing is queued.
  static func keep(_ blobs: BlobFolder, incoming: String, as hash: String, in folder: Int32, store: String) throws {
    do {
      try blobs.keep(incoming: incoming, as: hash, in: folder)
    } catch let refusal as BlobFolder.Refusal {
      throw QueueError.store(path: store, message: refusal.message)
    }
  }

  /// The queue error a failed write beside the store means: a full disk is `storage_full`.
  static func writeFailure(_ code: Int32, path: String) -> QueueError {
    let reason = String(cString: strerror(code))
    if code == ENOSPC || code == EDQUOT {
      return .storageFull(message: "the bytes could not be copied beside the store: \(reason)")
    }
    return .store(path: path, message: "the bytes could not be copied beside the store: \(reason)")
  }
}
