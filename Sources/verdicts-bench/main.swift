import Foundation

// verdicts-bench: measures what DESIGN.md section 7 promises, on this machine, in a release build.
// Figures are printed with the machine and the date; nothing here is a timed unit test.

let arguments = Array(CommandLine.arguments.dropFirst())
let options: BenchOptions
do {
  options = try BenchOptions.parse(arguments)
} catch let error as BenchOptions.UsageError {
  FileHandle.standardError.write(Data("verdicts-bench: \(error.message)\n\n\(BenchOptions.usage)\n".utf8))
  exit(2)
}
if options.help {
  print(BenchOptions.usage)
  exit(0)
}

let machine = Machine.current()
print(machine.description)
#if DEBUG
  print("warning: a debug build; the figures in docs/performance.md come from `swift run -c release verdicts-bench`")
#endif
print("")

var missed = false
for benchmark in options.benchmarks {
  print("== \(benchmark.name): \(benchmark.summary)")
  do {
    let outcome = try await benchmark.run(options)
    for line in outcome.lines { print(line) }
    if !outcome.metTargets { missed = true }
  } catch {
    print("\(benchmark.name) failed: \(error)")
    exit(1)
  }
  print("")
}
exit(missed ? 3 : 0)
