import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension WorkingCopy {
  /// How recently a file of the blob folder may have been made and still be left alone by a
  /// sweep: an upload is kept there before its write is queued (``putBlob(_:mimeType:)``).
  static let blobSweepGrace: TimeInterval = 60

  /// Lets go of uploaded bytes no write holds any more: neither a write in the queue nor one the
  /// archive keeps (an undo could put that one back, bytes and all). An upload's bytes thus go
  /// with their write once it can no longer come back. Only files named by a SHA-256 and older
  /// than ``blobSweepGrace`` are looked at; a store whose tables cannot be read keeps them all.
  func sweepBlobs() async {
    let blobs = BlobFolder(path: store.blobFolder)
    guard let folder = try? blobs.open(creating: false) else { return }
    defer { Glibc.close(folder) }
    let now = Date().timeIntervalSince1970
    let names = Self.blobNames(in: folder).filter { name in
      var st = stat()
      guard fstatat(folder, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
      return now - Double(st.st_mtim.tv_sec) > Self.blobSweepGrace
    }
    guard !names.isEmpty else { return }
    let held = try? await store.run { db in
      Set(
        try db.ids(
          """
          SELECT blob AS id FROM queue WHERE blob IS NOT NULL
          UNION SELECT json_extract(payload, '$.hash') AS id FROM queue WHERE kind = 'upload_blob'
          UNION SELECT blob AS id FROM archive WHERE blob IS NOT NULL
          """))
    }
    guard let held else { return }
    // A write may name its bytes `sha256:<hex>` (the contract's naming) or by the hex alone.
    let heldNames = Set(held.map { $0.hasPrefix("sha256:") ? String($0.dropFirst("sha256:".count)) : $0 })
    for name in names where !heldNames.contains(name) { unlinkat(folder, name, 0) }
  }

  /// The names in the blob folder that are a SHA-256 in hex (an upload's bytes).
  static func blobNames(in folder: Int32) -> [String] {
    let copy = dup(folder)
    guard copy >= 0, let dir = fdopendir(copy) else {
      if copy >= 0 { Glibc.close(copy) }
      return []
    }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name.utf8.count == 64, name.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) {
        names.append(name)
      }
    }
    return names
  }
}
