// swift-tools-version: 6.0
// The fuzz targets: a package of its own beside the project's, so the project's own build and
// `swift build --build-tests` never build them, and they build with `--sanitize=fuzzer
// --sanitize=address` without instrumenting the `verdicts` executable (whose `main` would meet
// libFuzzer's). Each target is one `LLVMFuzzerTestOneInput` over the project's modules (built
// optimized with `-enable-testing`, so `@testable import` reaches internal readers). `make fuzz`, `make
// fuzz-smoke`; docs/reliability.md, "Fuzzing".
import PackageDescription

let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

func target(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
  .executableTarget(name: "fuzz-\(name)", dependencies: dependencies, path: "Sources/\(name)", swiftSettings: fuzzer)
}

let package = Package(
  name: "verdicts-fuzz",
  dependencies: [.package(name: "verdicts", path: "..")],
  targets: [
    target("json", [.product(name: "MarfaWire", package: "verdicts")]),
    target(
      "sanitizer",
      [
        .product(name: "MarfaWire", package: "verdicts"), .product(name: "VerdictsUI", package: "verdicts"),
      ]),
    target("answer", [.product(name: "MarfaQueue", package: "verdicts")]),
    target("events", [.product(name: "MarfaQueue", package: "verdicts")]),
    target("filter", [.product(name: "MarfaQueue", package: "verdicts")]),
    target("theme", [.product(name: "VerdictsUI", package: "verdicts")]),
    target("keys", [.product(name: "VerdictsUI", package: "verdicts")]),
    target("uiconfig", [.product(name: "VerdictsUI", package: "verdicts")]),
    target("scenario", [.product(name: "ScriptedInstance", package: "verdicts")]),
    target("resolver", [.product(name: "MarfaQueue", package: "verdicts")]),
    target("corestore", [.product(name: "MarfaQueue", package: "verdicts")]),
    target(
      "arguments",
      [
        .product(name: "MarfaWire", package: "verdicts"), .product(name: "VerdictsCommand", package: "verdicts"),
      ]),
  ]
)
