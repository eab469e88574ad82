import FoundationEssentials
import Glibc
import MarfaQueue

/// The commands that queue a write: each creates a missing store, queues, and prints the write.
extension CommandRunner {
  func queueWrite(_ id: CommandID) async throws -> ExitCode {
    // Everything that can be checked without the store is checked first, so bad input creates nothing.
    let upload = id == .blobsPut ? try readUpload() : nil
    // A write that takes the copy's version needs a copy that holds the row: a missing store holds none.
    // An item update names the version its edit was read at: `--version N`, or `--as-read` for
    // the version the copy shows (an update that names neither is refused before anything is stored).
    if id == .itemsUpdate, !args.has("--version"), !args.flag("--as-read") {
      throw QueueError.invalid(
        message: "items update: name the version the edit was read at (--version N), "
          + "or --as-read for the version the copy shows; nothing was queued")
    }
    let takesCopyVersion = [.itemsUpdate, .itemsDelete, .edgesUpdate].contains(id) && !args.has("--version")
    do {
      try await withCopy(create: !takesCopyVersion) { copy in
        printQueued(try await enqueue(id, on: copy, upload: upload))
        try await lingerForTests()
      }
    } catch QueueError.noStore(let path) where takesCopyVersion {
      let row = id == .edgesUpdate ? "edge" : "item"
      throw QueueError.invalid(
        message: "the copy holds no \(row) \(args.string("ID") ?? "") (there is no store at \(path) yet); "
          + "name the version it was read at (--version N)")
    }
    if let failure = context.output.outFailure {
      throw CommandFailure(output: failure, note: "the write is queued all the same (verdicts queue lists it)")
    }
    return .done
  }

  /// `items attach` and `items add`: the file's upload, its file item and (attached) the edge to
  /// the item, printed as `{upload, item, edge}` for an attachment and as a list for a file added
  /// on its own (its tags after the two).
  func queueFile(_ id: CommandID) async throws -> ExitCode {
    let upload = try readUpload()
    let options = WorkingCopy.FileOptions(
      mimeType: upload.mime, title: args.string("--title"), type: args.string("--type"), tier: args.string("--tier"),
      tags: args.strings("--tag"))
    try await withCopy(create: true) { copy in
      if id == .itemsAttach {
        let writes = try await copy.attach(file: upload.path, to: args.string("ID") ?? "", options)
        if json {
          var members: [(String, JSONValue)] = [("upload", queued(writes.upload)), ("item", queued(writes.item))]
          if let edge = writes.edge { members.append(("edge", queued(edge))) }
          context.printJSON(.object(members))
        } else {
          for w in [writes.upload, writes.item] + (writes.edge.map { [$0] } ?? []) { printQueued(w) }
        }
      } else {
        let writes = try await copy.addFile(upload.path, options)
        let all = [writes.upload, writes.item] + writes.tags
        if json { context.printJSON(.array(all.map(queued))) } else { for w in all { printQueued(w) } }
      }
    }
    if let failure = context.output.outFailure {
      throw CommandFailure(output: failure, note: "the writes are queued all the same (verdicts queue lists them)")
    }
    return .done
  }

  /// A queued write's wire JSON as `queue --json` lists it (with its attempts, none yet).
  func queued(_ w: QueuedWrite) -> JSONValue {
    WriteAttempts().wireMembers.reduce(w.wireJSON) { $0.setting($1.0, $1.1) }
  }

  /// Queues the write the command names.
  func enqueue(_ id: CommandID, on copy: WorkingCopy, upload: (path: String, mime: String)?) async throws
    -> QueuedWrite
  {
    let a = args
    let id1 = a.string("ID") ?? ""
    let empty = JSONValue.object([])
    switch id {
    case .itemsCreate:
      let create = try await copy.createItem(
        type: a.string("--type") ?? "", properties: a.json("--properties") ?? empty, id: a.string("--id"),
        source: a.string("--source"), sourceId: a.string("--source-id"), tier: a.string("--tier"),
        version: a.int("--version"))
      // Each tag is a write of its own, waiting on the create (the create's body names none).
      for tag in a.strings("--tag") { _ = try await copy.addTag(item: create.itemId ?? "", tag: tag) }
      return create
    case .itemsUpdate:
      return try await copy.updateItem(
        id: id1, properties: a.json("--properties") ?? empty, version: a.int("--version"),
        asRead: a.flag("--as-read"), replace: a.flag("--replace"), type: a.string("--type"), tier: a.string("--tier"))
    case .itemsDelete: return try await copy.deleteItem(id: id1, version: a.int("--version"))
    case .itemsRestore: return try await copy.restoreItem(id: id1)
    case .itemsTransition: return try await copy.transitionItem(id: id1, state: a.string("--state") ?? "")
    case .edgesCreate:
      return try await copy.createEdge(
        source: a.string("--source") ?? "", target: a.string("--target") ?? "", type: a.string("--type") ?? "",
        properties: a.json("--properties") ?? empty, id: a.string("--id"))
    case .edgesUpdate:
      return try await copy.updateEdge(
        id: id1, properties: a.json("--properties") ?? empty, version: a.int("--version"))
    case .edgesDelete: return try await copy.deleteEdge(id: id1)
    case .tagsAdd: return try await copy.addTag(item: id1, tag: a.string("TAG") ?? "")
    case .tagsRemove: return try await copy.removeTag(item: id1, tag: a.string("TAG") ?? "")
    case .metadataReplace: return try await copy.writeMetadata(item: id1, tags: a.strings("--tag"), replace: true)
    case .metadataMerge: return try await copy.writeMetadata(item: id1, tags: a.strings("--tag"), replace: false)
    case .extensionsWrite:
      return try await copy.writeExtension(item: id1, namespace: a.string("NS") ?? "", body: a.json("--body") ?? empty)
    case .extensionsDelete: return try await copy.deleteExtension(item: id1, namespace: a.string("NS") ?? "")
    case .blobsPut:
      guard let upload else { throw QueueError.invalid(message: "no file to upload") }
      // Hashed and copied beside the store a chunk at a time: a file of any size in constant memory.
      return try await copy.putBlob(file: upload.path, mimeType: upload.mime)
    default:
      throw QueueError.invalid(message: "\(id.rawValue) does not queue a write")
    }
  }

  /// Prints a queued write: its wire JSON (as `queue --json` lists it: with its attempts, none
  /// yet), or a sentence.
  func printQueued(_ w: QueuedWrite) {
    if json {
      context.printJSON(queued(w))
      return
    }
    let text = WriteText(ascii: context.globals.ascii)
    var line = "queued \(w.kind.wireName) \(context.visible(w.id))"
    let rows = text.rows(w)
    if !rows.isEmpty { line += " for \(rows)" }
    if !w.dependsOn.isEmpty { line += ", waiting on \(context.visible(w.dependsOn.joined(separator: ", ")))" }
    if let follows = w.follows { line += ", after \(context.visible(follows))" }
    context.print(line)
  }

  /// The file `blobs put` uploads, and its MIME type; checked (a readable regular file, never
  /// read whole) before the store is opened.
  func readUpload() throws -> (path: String, mime: String) {
    let path = GlobalOptions.expand(args.string("FILE") ?? "", context.environment)
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR, access(path, R_OK) == 0 else {
      throw CommandFailure(
        code: "usage", message: "cannot read \(context.visible(path)): no such file, or not a readable file",
        exit: .usage)
    }
    let mime = args.string("--mime") ?? Self.mimeType(forExtension: path.lastPathPart.pathExtension)
    guard info.st_size > 0 else {
      throw QueueError.invalid(
        message: "\(context.visible(path)) is empty: the instance holds no empty blob, so nothing was queued")
    }
    return (path, mime)
  }

  /// A MIME type for common file extensions; `application/octet-stream` otherwise.
  static func mimeType(forExtension ext: String) -> String {
    switch ext.lowercased() {
    case "json": return "application/json"
    case "txt", "log": return "text/plain"
    case "md": return "text/markdown"
    case "csv": return "text/csv"
    case "html", "htm": return "text/html"
    case "png": return "image/png"
    case "jpg", "jpeg": return "image/jpeg"
    case "gif": return "image/gif"
    case "webp": return "image/webp"
    case "svg": return "image/svg+xml"
    case "pdf": return "application/pdf"
    case "zip": return "application/zip"
    case "epub": return "application/epub+zip"
    case "docx": return "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    case "xlsx": return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    case "pptx": return "application/vnd.openxmlformats-officedocument.presentationml.presentation"
    default: return "application/octet-stream"
    }
  }

  /// Waits after printing a queued write when `VERDICTS_TEST_LINGER_SECONDS` is set, so a test can
  /// kill the process after it printed and before it exits (durability across `kill -9`).
  func lingerForTests() async throws {
    guard let text = context.environment["VERDICTS_TEST_LINGER_SECONDS"], let seconds = Double(text), seconds > 0
    else { return }
    try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
  }
}
