import Glibc
import MarfaQueue

/// The `Y` export: a write's detail written to a new file in the current folder.
enum DetailExport {
  /// Writes an export to `verdicts-<short id>.txt` in the current folder (`-2`, `-3`… when taken)
  /// and returns its name; never overwrites a file.
  static func save(_ text: String, first id: String) throws -> String {
    let base = "verdicts-" + String(id.suffix(8)).filter { $0.isLetter || $0.isNumber || $0 == "-" }
    for n in 1...999 {
      let name = "./" + base + (n == 1 ? "" : "-\(n)") + ".txt"
      let fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0o644)
      if fd < 0 {
        if errno == EEXIST { continue }
        throw QueueError.invalid(message: "cannot write \(name): \(String(cString: strerror(errno)))")
      }
      defer { close(fd) }
      let bytes = Array(text.utf8)
      var sent = 0
      while sent < bytes.count {
        let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n <= 0 { throw QueueError.invalid(message: "cannot write \(name): \(String(cString: strerror(errno)))") }
        sent += n
      }
      return name
    }
    throw QueueError.invalid(message: "cannot write an export: \(base).txt to \(base)-999.txt are taken")
  }
}
