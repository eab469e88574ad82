/// The bench's command line: `verdicts-bench [SECTION...|all] [--writes N] [--rounds N] [--dir PATH]`.
struct BenchOptions {
  /// Writes per round for the drain benchmark.
  var writes = 10_000
  /// Rounds per benchmark; medians are printed.
  var rounds = 5
  /// Where the benchmark stores go (a fresh folder inside it per round); nil: the temporary folder.
  var folder: String?
  /// Store sizes for `panes` (nil: 100,000 and 1,000,000).
  var panesSizes: [Int]?
  /// Verdicts committed per store in `panes`, and per measurement in `bytes` and `watch`.
  var updates = 20
  /// The benchmarks asked for, in order.
  var benchmarks: [any Benchmark] = []
  var help = false

  /// Every benchmark this build has, by section name. Later sections (`panes`, `bytes`, `watch`) add themselves here.
  static let available: [any Benchmark] = [DrainBenchmark(), PanesBenchmark(), BytesBenchmark(), WatchBenchmark()]

  static var usage: String {
    var text = """
      usage: verdicts-bench [SECTION...|all] [--writes N] [--rounds N] [--dir PATH] [--sizes N,N] [--updates N]

      sections:
      """
    for b in available { text += "\n  \(b.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \(b.summary)" }
    text += """

        all      every section above (the default)

      options:
        --writes N   writes per round for the drain (default 10000)
        --rounds N   rounds per section; medians are printed (default 5)
        --dir PATH   the folder the benchmark stores are made in (default: the temporary folder);
                     panes keeps its generated stores there (verdicts-bench-panes/) for the next run
        --sizes N,N  store sizes for panes (default 100000,1000000)
        --updates N  verdicts timed per store in panes (default 20)

      Exit: 0 every target met, 3 a target missed, 2 usage, 1 a benchmark failed.
      """
    return text
  }

  struct UsageError: Error { var message: String }

  static func parse(_ arguments: [String]) throws -> BenchOptions {
    var o = BenchOptions()
    var names: [String] = []
    var i = 0
    func value(_ flag: String) throws -> String {
      i += 1
      guard i < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
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
      case "--writes": o.writes = try positive(a)
      case "--rounds": o.rounds = try positive(a)
      case "--dir": o.folder = try value(a)
      case "--updates": o.updates = try positive(a)
      case "--sizes":
        let text = try value(a)
        let sizes = text.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
        guard !sizes.isEmpty, sizes.count == text.split(separator: ",").count else {
          throw UsageError(message: "--sizes takes whole numbers above 0 separated by commas, not \(text)")
        }
        o.panesSizes = sizes
      default:
        if a.hasPrefix("-") { throw UsageError(message: "unknown option \(a)") }
        names.append(a)
      }
      i += 1
    }
    if names.isEmpty || names.contains("all") {
      o.benchmarks = available
    } else {
      for name in names {
        guard let b = available.first(where: { $0.name == name }) else {
          let known = available.map(\.name).joined(separator: ", ")
          throw UsageError(message: "unknown section \(name) (this build has: \(known), all)")
        }
        o.benchmarks.append(b)
      }
    }
    return o
  }
}
