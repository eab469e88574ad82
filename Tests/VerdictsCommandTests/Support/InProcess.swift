import Foundation
@testable import VerdictsCommand

/// Runs the command tree in this process, against `store`, capturing both streams.
func runInProcess(_ arguments: [String], store: String? = nil, environment: [String: String] = [:]) async
  -> CommandResult
{
  var env = ["HOME": "/nonexistent-home-for-tests"]
  if let store { env["MARFA_DB"] = store }
  env.merge(environment) { _, new in new }
  let output = CapturedOutput()
  let code = await VerdictsCLI.run(arguments: arguments, environment: env, output: output)
  return CommandResult(code: code, stdout: output.stdout, stderr: output.stderr)
}
