import Glibc

/// The commit a release binary was built from, as `make release` stamps it: the GNU build-id
/// note of the executable is set to the commit's 20 bytes, then one byte (1 when the tree held
/// changes not committed, else 0), then the marker `V`. A binary built any other way has the
/// linker's own 20-byte build-id, and no commit.
enum BuildStamp {
  /// The commit and whether the tree was dirty; nil for a binary not built by `make release`.
  static let commit: (hash: String, dirty: Bool)? = {
    guard let note = buildID(), note.count == 22, note[21] == UInt8(ascii: "V"), note[20] <= 1 else { return nil }
    let hex = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in note.prefix(20) {
      text.append(hex[Int(byte >> 4)])
      text.append(hex[Int(byte & 0x0F)])
    }
    return (String(decoding: text, as: UTF8.self), note[20] == 1)
  }()

  /// What `--version` prints after the version: `(commit 1a2b3c4d5e6f)`, `(commit … with changes
  /// not committed)`, or `(not a release build: no commit stamped)`.
  static var words: String {
    guard let commit else { return "(not a release build: no commit stamped)" }
    return "(commit \(commit.hash.prefix(12))\(commit.dirty ? ", with changes not committed" : ""))"
  }

  /// The executable's GNU build-id note, read from its program headers in memory.
  private static func buildID() -> [UInt8]? {
    final class Found { var bytes: [UInt8]? }
    let found = Found()
    _ = withUnsafeMutablePointer(to: &found.bytes) { slot in
      dl_iterate_phdr(
        { info, _, data -> Int32 in
          guard let info, let data else { return 1 }
          // The first object is the executable itself.
          let slot = data.assumingMemoryBound(to: [UInt8]?.self)
          let base = UInt(info.pointee.dlpi_addr)
          for i in 0..<Int(info.pointee.dlpi_phnum) {
            let header = info.pointee.dlpi_phdr[i]
            guard header.p_type == UInt32(PT_NOTE) else { continue }
            var at = base + UInt(header.p_vaddr)
            let end = at + UInt(header.p_memsz)
            while at + 12 <= end {
              let words = UnsafePointer<UInt32>(bitPattern: at)!
              let nameSize = UInt(words[0])
              let descSize = UInt(words[1])
              let type = words[2]
              let name = at + 12
              let desc = name + ((nameSize + 3) & ~3)
              guard desc + descSize <= end else { break }
              if type == 3, nameSize == 4, descSize > 0 {  // NT_GNU_BUILD_ID, owner "GNU\0"
                let bytes = UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: desc), count: Int(descSize))
                slot.pointee = Array(bytes)
                return 1
              }
              at = desc + ((descSize + 3) & ~3)
            }
          }
          return 1
        }, slot)
    }
    return found.bytes
  }
}
