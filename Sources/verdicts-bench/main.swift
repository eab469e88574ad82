import Foundation

// verdicts-bench: measures what docs/performance.md sets as targets, on this machine, in a release build.
// Figures are printed with the machine and the date; nothing here is a timed unit test.

/// Prints a line at once, unbuffered, so a run piped into a file shows each round as it ends.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

let arguments = Array(CommandLine.arguments.dropFirst())
// Hidden modes the sections re-execute this binary in, one process per measurement.
if arguments.first == "panes-child" { exit(await PanesChild.main(Array(arguments.dropFirst()))) }
if arguments.first == "profile-run" { exit(await ProfileRun.main(Array(arguments.dropFirst()))) }
if arguments.first == "queue-child" { exit(await QueueChild.main(Array(arguments.dropFirst()))) }
let options: BenchOptions
do {
  options = try BenchOptions.parse(arguments)
} catch let error as BenchOptions.UsageError {
  FileHandle.standardError.write(Data("verdicts-bench: \(error.message)\n\n\(BenchOptions.usage)\n".utf8))
  exit(2)
}
if options.help {
  say(BenchOptions.usage)
  exit(0)
}

let check = SelfCheck.run()
guard check.failures.isEmpty else {
  say("verdicts-bench: the harness's self-check failed:")
  for f in check.failures { say("  \(f)") }
  exit(1)
}
if options.benchmarks.isEmpty {
  say("self-check: \(check.checks) checks held")
  exit(0)
}

let machine = Machine.current()
say(machine.description)
#if DEBUG
  say("warning: a debug build; the figures in docs/performance.md come from `swift run -c release verdicts-bench`")
#endif
say("self-check: \(check.checks) checks held")
if options.quick {
  say("quick mode: sizes \(options.sizes.map(String.init).joined(separator: ",")); not the targets' sizes")
}
say("")

var missed = false
var failed: [String] = []
for benchmark in options.benchmarks {
  say("== \(benchmark.name): \(benchmark.summary)")
  do {
    let outcome = try await benchmark.run(options)
    for line in outcome.lines { say(line) }
    if !outcome.metTargets && !benchmark.diagnostic { missed = true }
  } catch {
    // The other sections still run: a section that fails costs its own rows only.
    say("\(benchmark.name) failed: \(error)")
    failed.append(benchmark.name)
  }
  say("")
}
if !failed.isEmpty {
  say("failed: \(failed.joined(separator: ", "))")
  exit(1)
}
exit(missed ? 3 : 0)
