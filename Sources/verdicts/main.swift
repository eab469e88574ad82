import FoundationEssentials
import VerdictsCommand

#if canImport(Glibc)
  import Glibc
#endif

// A crash report goes to a file, never to an interactive backtracer on the person's terminal
// (this may start the program again, once).
ProcessStart.sendCrashReportsToAFile(environment: ProcessInfo.processInfo.environment)
// The arguments as the bytes received: one that is not UTF-8 is refused, not repaired.
let arguments = ProcessStart.arguments()
let environment = ProcessInfo.processInfo.environment
// Before any task starts (the thread pool needs /proc).
if let refused = VerdictsCLI.refuseWithoutProc(
  rawArguments: arguments, environment: environment, output: StandardStreams(), procMounted: ProcessStart.procMounted)
{
  exit(refused)
}
let code = await VerdictsCLI.run(rawArguments: arguments, environment: environment, output: StandardStreams())
exit(code)
