import Foundation

@testable import VerdictsCommand

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the command tree in this process, against `store`, capturing both streams.
///
/// With `settle`, waits for the store's writer lock to be let go before returning (see below);
/// a test that holds the lock on purpose passes false.
func runInProcess(
  _ arguments: [String], store: String? = nil, environment: [String: String] = [:], settle: Bool = true
) async -> CommandResult {
  var env = ["HOME": "/nonexistent-home-for-tests", "LANG": "C.UTF-8"]
  if let store { env["MARFA_DB"] = store }
  env.merge(environment) { _, new in new }
  let output = CapturedOutput()
  let code = await VerdictsCLI.run(arguments: arguments, environment: env, output: output)
  if settle, let store = env["MARFA_DB"] { await waitForWriterRoleReleased(store) }
  return CommandResult(code: code, stdout: output.stdout, stderr: output.stderr)
}

/// Waits (at most a second) until no open file in this process holds the store's writer lock.
///
/// A closed `WorkingCopy` lets go of its lock when its store is deallocated, a moment after the
/// command returns; a command run next in the same process would otherwise find it still held.
/// A lock another test holds on purpose is simply waited out for that second.
func waitForWriterRoleReleased(_ store: String) async {
  let lockPath = store + ".lock"
  guard FileManager.default.fileExists(atPath: lockPath) else { return }
  for _ in 0..<200 {
    let fd = open(lockPath, O_RDWR | O_CLOEXEC)
    if fd < 0 { return }
    let free = flock(fd, LOCK_EX | LOCK_NB) == 0
    close(fd)
    if free { return }
    try? await Task.sleep(nanoseconds: 5_000_000)
  }
}
