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
    let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
    let trimmed = line.trimmingSpacesAndNewlines()
    guard !trimmed.isEmpty else {
      throw CommandFailure(code: "usage", message: "\(source) holds no key on its first line", exit: .usage)
    }
    key = trimmed
  }
}
