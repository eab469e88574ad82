import FoundationEssentials
import MarfaQueue
import VerdictsUI

extension GlobalOptions {
  /// The most bytes a key file or standard input is read for: a key is a line, not a file.
  static let keyReadLimit = 16_384

  /// Reads the key from `--key-file` or, with `--key -`, from `standardInput` (called at most
  /// once, with ``keyReadLimit``); refuses both given at once, a file that cannot be read, text
  /// that is not UTF-8, and an empty key (exit 2).
  mutating func readKey(standardInput: (Int) -> [UInt8]?) throws {
    guard keyFile != nil || keyFromStandardInput else { return }
    if keyFile != nil && keyFromStandardInput {
      throw CommandFailure(code: "usage", message: "give --key - or --key-file, not both", exit: .usage)
    }
    let bytes: [UInt8]
    let source: String
    if let keyFile {
      source = "the key file \(Sanitizer.clean(keyFile, ascii: ascii))"
      do {
        bytes = try ConfigFile.read(keyFile, limit: Self.keyReadLimit, what: "key file")
      } catch let problem as ConfigFile.Problem {
        throw CommandFailure(code: "usage", message: problem.message, exit: .usage)
      }
    } else {
      source = "standard input"
      guard let read = standardInput(Self.keyReadLimit + 1) else {
        throw CommandFailure(code: "usage", message: "the key cannot be read from standard input", exit: .usage)
      }
      guard read.count <= Self.keyReadLimit else {
        throw CommandFailure(
          code: "usage", message: "standard input holds more than \(Self.keyReadLimit) bytes; a key is one line",
          exit: .usage)
      }
      bytes = read
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw CommandFailure(code: "usage", message: "\(source) is not UTF-8 text", exit: .usage)
    }
    let trimmed = try Self.firstLineKey(text, source: source)
    guard !trimmed.isEmpty else {
      throw CommandFailure(code: "usage", message: "\(source) holds no key on its first line", exit: .usage)
    }
    key = trimmed
  }

  /// The key on the first line of `text`: the line ends at the first LF, and a CR before it is
  /// taken off with it (a file saved with Windows line ends, CRLF, is read as the same key);
  /// white space around the key is taken off. A control character left inside the line (a
  /// lone CR, a NUL, an escape) cannot go in a header: it is refused, saying where it is.
  static func firstLineKey(_ text: String, source: String) throws -> String {
    var line = Array(text.unicodeScalars.prefix { $0 != "\n" })
    if line.last == "\r" { line.removeLast() }
    let blank: (Unicode.Scalar) -> Bool = { $0.properties.isWhitespace }
    while let first = line.first, blank(first) { line.removeFirst() }
    while let last = line.last, blank(last) { line.removeLast() }
    if let bad = line.firstIndex(where: { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }) {
      let what = line[bad] == "\r" ? "a carriage return (CR) that does not end the line" : "a control character"
      throw CommandFailure(
        code: "usage", message: "the key on the first line of \(source) holds \(what), at character \(bad + 1)",
        exit: .usage)
    }
    var key = ""
    key.unicodeScalars.append(contentsOf: line)
    return key
  }
}
