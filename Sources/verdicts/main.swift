import FoundationEssentials
import VerdictsCommand

#if canImport(Glibc)
  import Glibc
#endif

// A crash report goes to a file, never to an interactive backtracer on the person's terminal
// (this may start the program again, once).
ProcessStart.sendCrashReportsToAFile(environment: ProcessInfo.processInfo.environment)
// The arguments as the bytes received: one that is not UTF-8 is refused, not repaired.
let code = await VerdictsCLI.run(
  rawArguments: ProcessStart.arguments(), environment: ProcessInfo.processInfo.environment,
  output: StandardStreams(), startNote: ProcessStart.withoutProc)
exit(code)
