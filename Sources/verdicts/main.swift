import Foundation
import VerdictsCommand

let code = await VerdictsCLI.run(
  arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
  output: StandardStreams())
exit(code)
