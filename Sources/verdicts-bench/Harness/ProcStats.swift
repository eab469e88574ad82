import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What /proc says of a running process: its wakeups (context switches summed over its threads)
/// and its CPU time.
enum ProcStats {
  /// `voluntary_ctxt_switches` + `nonvoluntary_ctxt_switches` of one `/proc/…/status` text.
  static func switches(status text: String) -> Int {
    var total = 0
    for line in text.split(separator: "\n")
    where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
      total += Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
    }
    return total
  }

  /// One thread's context switches, and whether it is libdispatch's manager thread.
  struct Wakeups: Sendable {
    var voluntary: Int
    var involuntary: Int
    var manager: Bool
  }

  /// Each thread of `pid` now, by thread id: its voluntary context switches (each a sleep it
  /// was woken from), its preemptions, and whether it is libdispatch's manager thread (the one
  /// waiting in `epoll_wait`, syscall 232, `/proc/PID/task/TID/syscall`).
  static func wakeupsByThread(pid: pid_t) -> [String: Wakeups] {
    let folder = "/proc/\(pid)/task"
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    var out: [String: Wakeups] = [:]
    for task in tasks {
      let text = (try? String(contentsOfFile: "\(folder)/\(task)/status", encoding: .utf8)) ?? ""
      func field(_ name: String) -> Int {
        text.split(separator: "\n").first { $0.hasPrefix(name) }
          .flatMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") } ?? 0
      }
      let call = (try? String(contentsOfFile: "\(folder)/\(task)/syscall", encoding: .utf8)) ?? ""
      out[task] = Wakeups(
        voluntary: field("voluntary_ctxt_switches:"), involuntary: field("nonvoluntary_ctxt_switches:"),
        manager: call.split(separator: " ").first == "232")
    }
    return out
  }

  /// Context switches of each thread of `pid` now, by thread id.
  static func switchesByThread(pid: pid_t) -> [String: Int] {
    let folder = "/proc/\(pid)/task"
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    var out: [String: Int] = [:]
    for task in tasks {
      out[task] = switches(status: (try? String(contentsOfFile: "\(folder)/\(task)/status", encoding: .utf8)) ?? "")
    }
    return out
  }

  /// The context switches made between two readings of ``switchesByThread(pid:)``: a thread there
  /// at both counts what it made since, a new one all it made, and one that ended in between is
  /// counted as `ended` (what it made is lost to /proc): never a negative count.
  static func switchesBetween(_ before: [String: Int], _ after: [String: Int]) -> (count: Int, ended: Int) {
    let count = after.reduce(0) { sum, entry in sum + max(0, entry.value - (before[entry.key] ?? 0)) }
    return (count, before.keys.filter { after[$0] == nil }.count)
  }

  /// A thread's name (`/proc/PID/task/TID/comm`), or its id when it is gone.
  static func threadName(pid: pid_t, tid: String) -> String {
    let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/comm", encoding: .utf8)) ?? ""
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? "thread \(tid)" : "\(trimmed) (\(tid))"
  }

  /// Context switches of every thread of `pid` now (a thread that ended since is not counted).
  static func switches(pid: pid_t) -> Int {
    let folder = "/proc/\(pid)/task"
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return tasks.reduce(0) { sum, task in
      sum + switches(status: (try? String(contentsOfFile: "\(folder)/\(task)/status", encoding: .utf8)) ?? "")
    }
  }

  /// utime + stime (clock ticks) of one `/proc/PID/stat` text: fields 14 and 15, counted after
  /// the command name's closing parenthesis (the name may hold spaces and parentheses).
  static func cpuTicks(stat text: String) -> Int? {
    guard let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // fields[0] is the state (field 3); utime is field 14, stime 15.
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
    return user + system
  }

  /// CPU seconds `pid` has used so far (every thread).
  static func cpuSeconds(pid: pid_t) -> Double {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    return Double(cpuTicks(stat: text) ?? 0) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// The machine's steal time so far, in seconds: the eighth number of `/proc/stat`'s `cpu` line,
  /// the time a hypervisor ran something else while this machine's CPUs had work. Read around a
  /// drain, it says whether a slow round was the machine's host and not the drain.
  static func stealSeconds() -> Double {
    let text = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)) ?? ""
    return Double(stealTicks(stat: text) ?? 0) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// The steal ticks of one `/proc/stat` text (its `cpu` line's eighth number).
  static func stealTicks(stat text: String) -> Int? {
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
    let numbers = line.split(separator: " ").dropFirst()
    guard numbers.count >= 8 else { return nil }
    return Int(numbers[numbers.startIndex + 7])
  }

  /// Seconds the threads of `pid` now alive have waited on a run queue for a CPU: the second
  /// number of each `/proc/PID/task/TID/schedstat` (nanoseconds), summed. Nil when none is read.
  static func runDelaySeconds(pid: pid_t) -> Double? {
    let folder = "/proc/\(pid)/task"
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
    var total = 0
    for task in tasks {
      let text = (try? String(contentsOfFile: "\(folder)/\(task)/schedstat", encoding: .utf8)) ?? ""
      let numbers = text.split(separator: " ")
      if numbers.count >= 2, let ns = Int(numbers[1]) { total += ns }
    }
    return Double(total) / 1e9
  }
}
