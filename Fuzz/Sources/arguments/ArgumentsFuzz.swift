import MarfaWire

@testable import VerdictsCommand

/// The argument parser on any argv: the bytes split at NUL into arguments, each read as UTF-8.
/// Oracles: exactly one outcome, never a trap; what the command line prints for a usage error
/// (plain and `--json`) holds no character a terminal acts on but the line feeds between lines.
/// Only the parser runs: nothing is opened or created.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).prefix(64).map {
    String(decoding: $0, as: UTF8.self)
  }
  switch CommandTable.parser.parse(arguments) {
  case .failure(let error, let parsed):
    let globals = GlobalOptions(parsed, environment: [:])
    let output = CapturedOutput()
    _ = VerdictsCLI.report(CommandFailure(usage: error), globals: globals, output: output)
    for line in output.stderr.split(separator: "\n") where !Sanitizer.isSafe(String(line)) {
      fatalError("a usage error reaches the terminal unsafe: \(line.unicodeScalars.map(\.value))")
    }
  case .run, .help, .version: break
  }
  return 0
}
