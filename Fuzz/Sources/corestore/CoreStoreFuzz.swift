import Glibc

@testable import MarfaQueue

/// The store reader on a mutated SQLite file: the bytes are written as a store file, told apart
/// (`StoreFile.kind`), and when they are a Marfa core store, opened and read as the screens read
/// one: the counts, the status, every pane in every order and with a filter, each write by id.
/// Oracles: each step reads or refuses with a `QueueError` (never another error, never a trap),
/// and the file's bytes are the same afterwards (the reader never writes a store it reads).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoreStore(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let path = Folder.path + "/store.sqlite"
  for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
  guard write(bytes, to: path) else { fatalError("cannot write \(path)") }
  do {
    let kind = try StoreFile.kind(at: path)
    if case .marfaCore = kind {
      let store = try CoreStore.open(path: path)
      defer { store.close() }
      _ = try store.readCounts()
      _ = try store.readStatus()
      var ids: [String] = []
      for pane in QueuePane.allCases {
        for order in PaneOrder.allCases {
          let page = try store.readPage(pane, offset: 0, limit: 20, filter: nil, order: order)
          ids += page.writes.map(\.id)
        }
        _ = try store.readPage(pane, offset: 3, limit: 5, filter: "reason:key_spent item", order: .sendOrder)
      }
      for write in try store.readAll().prefix(50) { ids.append(write.id) }
      for id in Set(ids).prefix(50) { _ = try store.readWrite(id: id) }
    }
  } catch is QueueError {
  } catch {
    fatalError("the store reader threw something other than a QueueError: \(error)")
  }
  guard read(path) == bytes else { fatalError("reading the store changed its file") }
  return 0
}

/// A private folder for the file under test, made once.
enum Folder {
  static let path: String = {
    var template = Array("/tmp/fuzz-corestore-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("cannot make a folder under /tmp") }
    return String(cString: made)
  }()
}

/// Writes `bytes` as the whole of the file at `path`.
func write(_ bytes: [UInt8], to path: String) -> Bool {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  guard fd >= 0 else { return false }
  defer { close(fd) }
  var done = 0
  while done < bytes.count {
    let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
    guard n > 0 else { return false }
    done += n
  }
  return true
}

/// The whole of the file at `path`.
func read(_ path: String) -> [UInt8]? {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var out: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
    if n < 0 { return nil }
    if n == 0 { return out }
    out += buffer[0..<n]
  }
}
