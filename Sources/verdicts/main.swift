import Dispatch
import FoundationEssentials
import MarfaWire
import VerdictsCommand

#if canImport(Glibc)
  import Glibc
#endif

// A crash report goes to a file, never to an interactive backtracer on the person's terminal
// (this may start the program again, once).
ProcessStart.sendCrashReportsToAFile(environment: ProcessInfo.processInfo.environment)
// The arguments as the bytes received: one that is not UTF-8 is refused, not repaired. None to
// be found is said and refused: never read as none given (that opens the TUI on the default store).
guard let arguments = ProcessStart.arguments() else {
  StandardStreams().err(ProcessStart.unreadableArguments)
  exit(2)
}
let environment = ProcessInfo.processInfo.environment
// Before any task starts (the thread pool needs /proc).
if let refused = VerdictsCLI.refuseWithoutProc(
  rawArguments: arguments, environment: environment, output: StandardStreams(), procMounted: ProcessStart.procMounted)
{
  exit(refused)
}
if let refused = VerdictsCLI.refuseWithoutAddressRoom(
  rawArguments: arguments, environment: environment, output: StandardStreams(),
  limit: ProcessStart.addressSpaceLimitTooLow())
{
  exit(refused)
}
// Not an `await` at the top level: an async main hands the main thread to `dispatch_main`, whose
// `pthread_exit` unwinds the main thread's stack through libgcc at every start (0.9 MB of the
// binary's unwind tables mapped, in about half the runs of `--version`). The main thread waits
// instead, and nothing here needs it while it does (no main-actor work).
let finished = DispatchSemaphore(value: 0)
let code = Mutex<Int32>(0)
Task.detached {
  let c = await VerdictsCLI.run(rawArguments: arguments, environment: environment, output: StandardStreams())
  code.withLock { $0 = c }
  finished.signal()
}
finished.wait()
exit(code.withLock { $0 })
