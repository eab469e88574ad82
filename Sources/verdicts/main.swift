import FoundationEssentials
import VerdictsCommand

#if canImport(Glibc)
  import Glibc
#endif

// The arguments as the bytes received: one that is not UTF-8 is refused, not repaired.
let raw: [[UInt8]] = (1..<Int(CommandLine.argc)).map { i in
  guard let p = CommandLine.unsafeArgv[i] else { return [] }
  return Array(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
}
let code = await VerdictsCLI.run(
  rawArguments: raw, environment: ProcessInfo.processInfo.environment, output: StandardStreams())
exit(code)
