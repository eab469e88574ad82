import FoundationEssentials
import MarfaWire

#if canImport(Glibc)
  import Glibc
#endif

extension Scenario {
  /// Reads a scenario from its JSON text (format: `docs/scripted-instance.md`); `source` names it in errors.
  public init(json text: String, source: String = "text") throws {
    let value: ScriptedJSON
    do {
      value = try ScriptedJSON(parsing: text)
    } catch {
      throw ScenarioError.notJSON(source: source, reason: error.description)
    }
    self = try ScenarioReader(source: source).scenario(value)
  }

  /// The most bytes a scenario file may hold: a hand-written script is a few KB.
  package static let fileLimit = 4 << 20

  /// Reads a scenario from a JSON file: only a regular file (a FIFO would wait forever and
  /// `/dev/zero` never ends), at most ``fileLimit`` bytes, UTF-8.
  public init(contentsOf file: URL) throws {
    let bytes = try Self.boundedRead(file.path)
    guard let text = String(validating: bytes, as: UTF8.self) else {
      var line = 1
      for part in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        if String(validating: part, as: UTF8.self) == nil { break }
        line += 1
      }
      throw ScenarioError.notJSON(source: file.path, reason: "line \(line) is not UTF-8 text")
    }
    try self.init(json: text, source: file.path)
  }

  /// The file's bytes, refused by what it is when it is not a regular file of at most ``fileLimit``.
  static func boundedRead(_ path: String) throws -> [UInt8] {
    func failure(_ reason: String) -> ScenarioError { .unreadable(path: path, reason: reason) }
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw failure(String(cString: strerror(errno))) }
    switch st.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw failure("it is a folder, not a file")
    case S_IFIFO: throw failure("it is a FIFO (named pipe), not a file")
    case S_IFCHR: throw failure("it is a character device, not a file")
    default: throw failure("it is not a regular file")
    }
    guard Int(st.st_size) <= fileLimit else {
      throw failure("it is \(st.st_size) bytes; a scenario may be at most \(fileLimit)")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = read(fd, &chunk, chunk.count)
      if n < 0 {
        if errno == EINTR { continue }
        throw failure(String(cString: strerror(errno)))
      }
      if n == 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
      if bytes.count > fileLimit { throw failure("it grew past \(fileLimit) bytes while it was read") }
    }
    return bytes
  }

  /// A named scenario, or else a JSON file at that path (`--scenario NAME|FILE`).
  public static func load(_ nameOrFile: String) throws -> Scenario {
    if let named = named(nameOrFile) { return named }
    guard FileManager.default.fileExists(atPath: nameOrFile) else {
      throw ScenarioError.unknown(name: nameOrFile, known: names)
    }
    return try Scenario(contentsOf: URL(fileURLWithPath: nameOrFile))
  }
}
