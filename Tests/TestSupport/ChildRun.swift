import Dispatch
import Foundation

/// What a program run to its end by ``ChildProcess/run(_:_:environment:input:errorsToOutput:)``
/// did: how it ended and both streams.
public struct ChildRun: Sendable {
  /// The exit code, or the signal's number when ``signalled``.
  public var status: Int32
  /// Whether a signal ended it.
  public var signalled: Bool
  /// Standard output (with standard error too, when the run put both on one pipe).
  public var stdout: Data
  /// Standard error (empty when it went to standard output).
  public var stderr: Data

  /// The exit code, or 128 plus the signal's number, as a shell reports it.
  public var shellStatus: Int32 { signalled ? 128 + status : status }
  /// Standard output as UTF-8 text.
  public var output: String { String(decoding: stdout, as: UTF8.self) }
  /// Standard error as UTF-8 text.
  public var errors: String { String(decoding: stderr, as: UTF8.self) }
}

extension ChildProcess {
  /// Runs `executable` with `arguments` to its end and returns what it did: the one way a test
  /// runs a program it only needs the outcome of. `environment` nil: this process's; `input` is
  /// written to its standard input, which is then closed (nil: /dev/null); with
  /// `errorsToOutput`, standard error goes to the same pipe as standard output. Both streams are
  /// read as they come, so neither can fill its pipe and stop the child.
  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
    errorsToOutput: Bool = false
  ) throws -> ChildRun {
    let p = ChildProcess()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    p.environment = environment
    let inPipe = input.map { _ in Pipe() }
    p.standardInput = inPipe ?? FileHandle.nullDevice
    let out = Pipe()
    let err = errorsToOutput ? nil : Pipe()
    p.standardOutput = out
    // The same pipe's write end for both: the spawn closes the parent's copy once, after it.
    p.standardError = err ?? out.fileHandleForWriting
    try p.run()
    if let inPipe, let input {
      inPipe.fileHandleForWriting.write(input)
      try? inPipe.fileHandleForWriting.close()
    }
    let errors = SharedValue(Data())
    let errorsRead = DispatchSemaphore(value: 0)
    if let err {
      // A thread of its own: a global queue's threads can all be blocked reading other children's pipes.
      Thread.detachNewThread {
        let data = err.fileHandleForReading.readDataToEndOfFile()
        errors.update { $0 = data }
        errorsRead.signal()
      }
    } else {
      errorsRead.signal()
    }
    let output = out.fileHandleForReading.readDataToEndOfFile()
    errorsRead.wait()
    p.waitUntilExit()
    return ChildRun(
      status: p.terminationStatus, signalled: p.terminationReason == .uncaughtSignal, stdout: output,
      stderr: errors.value)
  }
}
