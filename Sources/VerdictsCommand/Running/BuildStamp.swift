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

  /// The executable's GNU build-id note, read from its program headers in memory (the
  /// kernel gives every process their address in its auxiliary vector, `/proc/self/auxv`).
  private static func buildID() -> [UInt8]? {
    guard let (phdr, count) = programHeaders() else { return nil }
    // One Elf64_Phdr is 56 bytes: p_type (4), p_flags (4), p_offset, p_vaddr, p_paddr, p_filesz,
    // p_memsz, p_align (8 each).
    func type(_ i: Int) -> UInt32 { UnsafeRawPointer(bitPattern: phdr + UInt(56 * i))!.loadUnaligned(as: UInt32.self) }
    func field(_ i: Int, _ offset: Int) -> UInt {
      UInt(UnsafeRawPointer(bitPattern: phdr + UInt(56 * i + offset))!.loadUnaligned(as: UInt64.self))
    }
    // Where the executable was loaded: PT_PHDR (6) says where its headers sit in its own addresses.
    guard let own = (0..<count).first(where: { type($0) == 6 }) else { return nil }
    let base = phdr &- field(own, 16)
    for i in 0..<count where type(i) == 4 {  // PT_NOTE
      var at = base &+ field(i, 16)
      let end = at + field(i, 40)
      while at + 12 <= end {
        let note = UnsafeRawPointer(bitPattern: at)!
        let nameSize = UInt(note.loadUnaligned(as: UInt32.self))
        let descSize = UInt(note.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        let kind = note.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        let desc = at + 12 + ((nameSize + 3) & ~3)
        guard desc + descSize <= end else { break }
        if kind == 3, nameSize == 4, descSize > 0 {  // NT_GNU_BUILD_ID, owner "GNU\0"
          return Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: desc), count: Int(descSize)))
        }
        at = desc + ((descSize + 3) & ~3)
      }
    }
    return nil
  }

  /// The address and count of the executable's program headers (AT_PHDR 3, AT_PHNUM 5).
  private static func programHeaders() -> (UInt, Int)? {
    let fd = open("/proc/self/auxv", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      // No /proc: the same values from getauxval.
      guard let phdr = ProcessStart.auxiliaryValue(3), let count = ProcessStart.auxiliaryValue(5), phdr != 0, count > 0
      else { return nil }
      return (phdr, Int(count))
    }
    defer { close(fd) }
    var words = [UInt64](repeating: 0, count: 128)
    let got = words.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard got > 0 else { return nil }
    var phdr: UInt = 0
    var count = 0
    for pair in stride(from: 0, to: got / 8 - 1, by: 2) {
      if words[pair] == 3 { phdr = UInt(words[pair + 1]) }
      if words[pair] == 5 { count = Int(words[pair + 1]) }
    }
    return phdr != 0 && count > 0 ? (phdr, count) : nil
  }
}
