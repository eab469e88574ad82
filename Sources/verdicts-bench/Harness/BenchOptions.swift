/// The bench's command line: `verdicts-bench [SECTION...|all] [--quick] [--sizes N,N,N] [--rounds N] …`.
struct BenchOptions {
  /// Writes per round for the drain benchmark, and per drain in the pty sections.
  var writes = 10_000
  /// Whether `--writes` was given: the remote section then drains that many, else its own size.
  var writesGiven = false
  /// `--only TEXT`: the remote section measures only the setups whose label holds it
  /// (`160x48, 2,560 B/s, paced`; `x` for `×`).
  var only: String?
  /// Rounds per measurement; medians are printed.
  var rounds = 5
  /// Where the benchmark stores go (kept stores in verdicts-bench-stores/); nil: the temporary folder.
  var folder: String?
  /// Store sizes: the first is the "100k" store, the second the "1M", the last the "5M".
  var sizes = [100_000, 1_000_000, 5_000_000]
  /// Verdicts timed one at a time.
  var updates = 20
  /// Seconds between verdicts in `verdict`'s bytes-per-verdict rows, one row each.
  var cadences = [0.3, 1, 2, 5]
  /// Seconds an idle screen is watched.
  var idleSeconds = 10
  /// Drained stores up to this size are drained whole; above it only their last `drainTail` writes.
  var fullDrainLimit = 1_000_000
  /// Writes drained for real on top of a generated store, above `fullDrainLimit`.
  var drainTail = 100_000
  /// The store shapes `frame` measures (both by default, compared in one run).
  var shapes = StoreCache.Shape.allCases
  /// Plain and screen watchers in `fifty` (30 and 20 by default; fewer to see what each kind costs).
  var watchers = (plain: 30, screens: 20)
  /// Make the kept stores again.
  var rebuild = false
  /// Small sizes and few rounds: the whole bench in a few minutes (its figures are not the targets' sizes).
  var quick = false
  /// The benchmarks asked for, in order.
  var benchmarks: [any Benchmark] = []
  var help = false

  /// The "100k", "1M" and "5M" stores of the targets (the first, second and last size).
  var small: Int { sizes[0] }
  var middle: Int { sizes.count > 1 ? sizes[1] : sizes[0] }
  var large: Int { sizes[sizes.count - 1] }

  /// Every benchmark this build has, by section name, in the order `all` runs them.
  static let available: [any Benchmark] = [
    FrameBenchmark(), VerdictBenchmark(), LinkBenchmark(), WatcherBenchmark(), MemoryBenchmark(), IdleBenchmark(),
    DrainBenchmark(), LatencyBenchmark(), QueueingBenchmark(), WatchBenchmark(), PanesBenchmark(), StartBenchmark(),
    FiftyWatchersBenchmark(), NeighbourBenchmark(), RemoteBenchmark(),
  ]

  static var usage: String {
    var text = """
      usage: verdicts-bench [SECTION...|all|selfcheck] [--quick] [--sizes N,N,N] [--rounds N] [--writes N]
                            [--updates N] [--dir PATH] [--rebuild] [--full-drain N] [--drain-tail N]
                            [--shapes generated,drained] [--cadences S,S,...] [--watchers P,S]

      sections:
      """
    for b in available { text += "\n  \(b.name.padding(toLength: 9, withPad: " ", startingAt: 0)) \(b.summary)" }
    text += """

        all       every section above (the default)
        selfcheck only the harness's own checks (they also run before every run)

      options:
        --quick         sizes 1000,5000,20000, 1000 writes, 2 rounds, 5 updates, 3 s idle,
                        full drains up to 5000 then 2000 on top: the whole bench in a few minutes
        --sizes N,N,N   store sizes (default 100000,1000000,5000000): the first is the "100k" of
                        the targets, the second the "1M", the last the "5M"
        --rounds N      rounds per measurement; medians are printed (default 5)
        --writes N      writes per drain in drain, link and watcher (default 10000), and in remote (default 2000)
        --only TEXT     remote: only the setups whose label holds TEXT ("160x48, 2,560 B/s, paced")
        --updates N     verdicts timed one at a time (default 20)
        --dir PATH      where stores are made and kept (verdicts-bench-stores/; default: the
                        temporary folder); kept stores are reused by later runs
        --rebuild       make the kept stores again (and measure their drains again)
        --full-drain N  drained stores up to N writes are drained whole (default 1000000)
        --drain-tail N  above that, the last N writes are drained for real on top of a generated
                        store (default 100000)
        --shapes S,S    the store shapes frame measures: generated, drained (default both)
        --cadences S,S  seconds between verdicts in verdict's bytes-per-verdict rows, a row each
                        (default 0.3,1,2,5; --updates verdicts at each)
        --watchers P,S  plain and screen watchers in fifty (default 30,20; its targets are for 30,20)

      The pty sections run the built `verdicts` beside the bench (`make bench` builds it).
      Exit: 0 every target met, 3 a target missed, 2 usage, 1 a benchmark or the self-check failed.
      """
    return text
  }

  struct UsageError: Error { var message: String }

  static func parse(_ arguments: [String]) throws -> BenchOptions {
    var o = BenchOptions()
    var names: [String] = []
    var given = Set<String>()
    var i = 0
    func value(_ flag: String) throws -> String {
      i += 1
      guard i < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
      given.insert(flag)
      return arguments[i]
    }
    func positive(_ flag: String) throws -> Int {
      let text = try value(flag)
      guard let n = Int(text), n > 0 else {
        throw UsageError(message: "\(flag) takes a whole number above 0, not \(text)")
      }
      return n
    }
    while i < arguments.count {
      let a = arguments[i]
      switch a {
      case "-h", "--help", "help": o.help = true
      case "--quick": o.quick = true
      case "--rebuild": o.rebuild = true
      case "--writes": o.writes = try positive(a)
      case "--only": o.only = try value(a)
      case "--rounds": o.rounds = try positive(a)
      case "--dir": o.folder = try value(a)
      case "--updates": o.updates = try positive(a)
      case "--full-drain": o.fullDrainLimit = try positive(a)
      case "--drain-tail": o.drainTail = try positive(a)
      case "--shapes":
        let text = try value(a)
        let shapes = text.split(separator: ",").compactMap { StoreCache.Shape(rawValue: String($0)) }
        guard !shapes.isEmpty, shapes.count == text.split(separator: ",").count else {
          throw UsageError(message: "--shapes takes generated, drained or both separated by a comma, not \(text)")
        }
        o.shapes = shapes
      case "--cadences":
        let text = try value(a)
        let cadences = text.split(separator: ",").compactMap { Double($0) }.filter { $0 > 0 && $0 <= 60 }
        guard !cadences.isEmpty, cadences.count == text.split(separator: ",").count else {
          throw UsageError(message: "--cadences takes seconds above 0 (at most 60) separated by commas, not \(text)")
        }
        o.cadences = cadences
      case "--watchers":
        let text = try value(a)
        let counts = text.split(separator: ",", omittingEmptySubsequences: false).compactMap { Int($0) }
        guard counts.count == 2, counts.allSatisfy({ $0 >= 0 && $0 <= 200 }), counts[0] + counts[1] > 0 else {
          throw UsageError(
            message: "--watchers takes two whole numbers (plain,screens) from 0 to 200, not both 0, not \(text)")
        }
        o.watchers = (counts[0], counts[1])
      case "--sizes":
        let text = try value(a)
        let sizes = text.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
        guard !sizes.isEmpty, sizes.count == text.split(separator: ",").count else {
          throw UsageError(message: "--sizes takes whole numbers above 0 separated by commas, not \(text)")
        }
        o.sizes = sizes.sorted()
      default:
        if a.hasPrefix("-") { throw UsageError(message: "unknown option \(a)") }
        names.append(a)
      }
      i += 1
    }
    o.writesGiven = given.contains("--writes")
    if o.quick {
      if !given.contains("--sizes") { o.sizes = [1_000, 5_000, 20_000] }
      if !given.contains("--writes") { o.writes = 1_000 }
      if !given.contains("--rounds") { o.rounds = 2 }
      if !given.contains("--updates") { o.updates = 5 }
      if !given.contains("--full-drain") { o.fullDrainLimit = 5_000 }
      if !given.contains("--drain-tail") { o.drainTail = 2_000 }
      o.idleSeconds = 3
    }
    if names == ["selfcheck"] { return o }
    if names.isEmpty || names.contains("all") {
      o.benchmarks = available
    } else {
      for name in names {
        guard let b = available.first(where: { $0.name == name }) else {
          let known = available.map(\.name).joined(separator: ", ")
          throw UsageError(message: "unknown section \(name) (this build has: \(known), all, selfcheck)")
        }
        o.benchmarks.append(b)
      }
    }
    return o
  }
}
