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
        message: "cannot read \(path): it is \(ConfigFile.kind(st.st_mode & S_IFMT)), not a file")
    }
    let folder = store.blobFolder
    if !StorePath.exists(folder), Glibc.mkdir(folder, 0o700) != 0, errno != EEXIST {
      throw Self.writeFailure(errno, path: folder)
    }
    let incoming = folder + "/.incoming-\(getpid())-\(UUID().uuidString)"
    let target = Glibc.open(incoming, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard target >= 0 else { throw Self.writeFailure(errno, path: incoming) }
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
            guard m > 0 else { throw Self.writeFailure(m < 0 ? errno : EIO, path: incoming) }
            written += m
          }
        }
        size += n
      }
      guard Glibc.fsync(target) == 0 else { throw Self.writeFailure(errno, path: incoming) }
    } catch {
      Glibc.unlink(incoming)
      throw error
    }
    let hash = hasher.finishHex()
    let file = folder + "/" + hash
    if StorePath.exists(file) {
      Glibc.unlink(incoming)
    } else if Glibc.rename(incoming, file) != 0 {
      let code = errno
      Glibc.unlink(incoming)
      throw Self.writeFailure(code, path: file)
    }
    let body = JSONValue.object([
      ("hash", .string(hash)), ("mime_type", .string(mimeType)), ("size_bytes", .int(size)),
    ])
    return try await enqueue(WriteDraft(kind: .uploadBlob, blob: hash, body: { _ in body }))
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
