// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "verdicts",
  products: [
    .library(name: "MarfaWire", targets: ["MarfaWire"]),
    .library(name: "MarfaQueue", targets: ["MarfaQueue"]),
    .library(name: "ScriptedInstance", targets: ["ScriptedInstance"]),
    // For the fuzz targets (Fuzz/Package.swift), which reach the screen's and the parser's readers.
    .library(name: "VerdictsUI", targets: ["VerdictsUI"]),
    .library(name: "VerdictsCommand", targets: ["VerdictsCommand"]),
    .executable(name: "verdicts", targets: ["verdicts"]),
    .executable(name: "verdicts-bench", targets: ["verdicts-bench"]),
  ],
  targets: [
    // C libraries, each reached only through its own small system-library target.
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
    .systemLibrary(name: "CNcurses", path: "CNcurses"),
    .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    // Linux system calls glibc does not wrap (a thread's scheduling attributes).
    .systemLibrary(name: "CLinux", path: "Sources/CLinux"),

    // SHA-256, which names uploaded bytes on both sides of the wire.
    .target(name: "Digest"),
    // What both sides of the wire and the screen share: the JSON value, its one reader and writer,
    // the one sanitizer for text that reaches a person, the one clock text.
    .target(name: "MarfaWire"),
    // The queue engine: SQLite store, queue calls, the drain over HTTP (libcurl). Never curses.
    .target(name: "MarfaQueue", dependencies: ["CSQLite", "CCurl", "Digest", "MarfaWire"]),
    // A Marfa instance on loopback that answers as scripted.
    .target(name: "ScriptedInstance", dependencies: ["Digest", "MarfaWire"]),
    // The terminal UI: state, layout, cell grid, keys, themes; one file imports CNcurses.
    .target(name: "VerdictsUI", dependencies: ["MarfaWire", "MarfaQueue", "CNcurses"]),
    // A store on another machine: the protocol `verdicts serve` speaks over ssh, both its sides.
    .target(name: "VerdictsRemote", dependencies: ["MarfaWire", "MarfaQueue", "VerdictsUI"]),
    // The command tree: argument parsing, commands, output. The executable only calls it.
    .target(
      name: "VerdictsCommand",
      dependencies: ["MarfaQueue", "ScriptedInstance", "VerdictsUI", "VerdictsRemote", "CLinux"]),
    .executableTarget(name: "verdicts", dependencies: ["VerdictsCommand"]),
    .executableTarget(
      name: "verdicts-bench",
      dependencies: ["MarfaQueue", "MarfaWire", "ScriptedInstance", "VerdictsUI", "CSQLite"]),

    // Tests
    // What more than one test target uses: a seeded generator, the soak switch, golden files,
    // core-store fixtures, and the one wait (`eventually`), temporary folder, child process and
    // loopback socket.
    .target(name: "TestSupport", dependencies: ["CSQLite", "MarfaWire"], path: "Tests/TestSupport"),
    .testTarget(name: "MarfaWireTests", dependencies: ["MarfaWire"]),
    .testTarget(
      name: "MarfaQueueTests", dependencies: ["MarfaQueue", "ScriptedInstance", "CSQLite", "Digest", "TestSupport"]),
    .testTarget(name: "DigestTests", dependencies: ["Digest"]),
    .testTarget(
      name: "ScriptedInstanceTests", dependencies: ["ScriptedInstance", "Digest", "MarfaWire", "TestSupport"]),
    .testTarget(
      name: "VerdictsUITests", dependencies: ["VerdictsUI", "MarfaQueue", "TestSupport"],
      exclude: ["Snapshots"]),
    .testTarget(
      name: "VerdictsCommandTests",
      dependencies: ["VerdictsCommand", "VerdictsRemote", "MarfaQueue", "ScriptedInstance", "TestSupport", "CLinux"]),
  ]
)
