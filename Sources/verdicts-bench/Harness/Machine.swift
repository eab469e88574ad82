import Foundation
import MarfaWire

#if canImport(Glibc)
  import Glibc
#endif

/// The machine and the moment the figures were taken on.
struct Machine: CustomStringConvertible {
  var date: String
  var host: String
  var cpus: Int
  var cpuModel: String
  var memoryMB: Int
  var availableMB: Int
  var kernel: String
  var build: String

  static func current() -> Machine {
    let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
    func kb(_ key: String) -> Int {
      for line in meminfo.split(separator: "\n") where line.hasPrefix(key + ":") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
      }
      return 0
    }
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
      ?? "unknown"
    var u = utsname()
    uname(&u)
    func field<T>(_ value: T) -> String {
      withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    #if DEBUG
      let build = "debug"
    #else
      let build = "release"
    #endif
    return Machine(
      date: Timestamp.now(), host: ProcessInfo.processInfo.hostName,
      cpus: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: model,
      memoryMB: kb("MemTotal") / 1024, availableMB: kb("MemAvailable") / 1024,
      kernel: "\(field(u.sysname)) \(field(u.release)) \(field(u.machine))", build: build)
  }

  var description: String {
    """
    verdicts-bench  \(date)
    machine: \(cpus) cpu(s) (nproc), \(cpuModel); memory \(memoryMB) MB (\(availableMB) MB available); \(kernel)
    build:   \(build)
    """
  }
}
