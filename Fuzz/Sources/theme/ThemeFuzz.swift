@testable import VerdictsUI

/// The theme reader on any text. Oracles: it never traps, and every problem it reports names a
/// line that is in the text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTheme(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
  for problem in ThemeReader.read(name: "fuzz", text: text).problems where problem.line < 0 || problem.line > lines {
    fatalError("a problem names line \(problem.line) of \(lines)")
  }
  return 0
}
