@testable import VerdictsUI

/// The theme, keys and config file readers on any text. Oracles: they never trap, and every
/// problem they report names a line that is in the text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
  let theme = ThemeReader.read(name: "fuzz", text: text)
  let keys = KeyMap.read(text)
  let config = UIConfig.read(text)
  for problem in theme.problems + keys.problems + config.problems where problem.line < 0 || problem.line > lines {
    fatalError("a problem names line \(problem.line) of \(lines)")
  }
  return 0
}
