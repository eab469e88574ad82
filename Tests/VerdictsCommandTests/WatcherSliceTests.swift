import CLinux
import Foundation
import TestSupport
import Testing

@testable import VerdictsCommand

#if canImport(Glibc)
  import Glibc
#endif

/// `watch` asks the kernel for long slices on every thread, keeping each thread's nice value, so
/// a drain on the same device gets a CPU the moment it wakes; other commands keep the default.
@Suite(.serialized) struct WatcherSliceTests {
  /// The slice the kernel reports for thread `tid` (sched_getattr's `sched_runtime`); nil when it
  /// cannot be read.
  static func slice(_ tid: pid_t) -> UInt64? {
    var attr = clinux_sched_attr()
    return clinux_sched_getattr(tid, &attr) == 0 ? attr.sched_runtime : nil
  }

  /// The threads of process `pid`.
  static func threads(of pid: pid_t) -> [pid_t] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).compactMap { pid_t($0) }
  }

  /// On a thread of its own (nice 5): the request's result, the nice value and slice after it,
  /// and whether this kernel keeps a thread's slice (reads back what was asked).
  static func requestOnAThreadOfItsOwn() -> (result: Int32, nice: Int32, slice: UInt64?, kept: Bool) {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var found: (Int32, Int32, UInt64?, Bool) = (-1, -1, nil, false)
    let thread = Thread {
      let tid = clinux_gettid()
      setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid), 5)
      let result = WatcherSlice.request()
      errno = 0
      let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid))
      let slice = Self.slice(tid)
      found = (result, nice, slice, slice == WatcherSlice.nanoseconds)
      done.signal()
    }
    thread.start()
    done.wait()
    return found
  }

  @Test func aThreadAsksForTheSliceAndKeepsItsNiceValue() {
    let (result, nice, slice, kept) = Self.requestOnAThreadOfItsOwn()
    #expect(result == 0, "errno \(result)")
    #expect(nice == 5)
    // This kernel keeps a fair thread's slice (Linux 6.12 and later): it reads back as asked.
    #expect(
      kept, "slice read back: \(String(describing: slice)); \(ProcessInfo.processInfo.operatingSystemVersionString)")
  }

  /// A slice neither the kernel's default nor a watcher's: a process started from a thread that
  /// has it inherits it, unless it asks for another (in-process `watch` tests give every thread
  /// of this test process the watcher's slice, so a child must not start from one of those).
  static let parentSlice: UInt64 = 3_000_000

  /// Starts `verdicts` from a thread of its own whose slice is ``parentSlice``.
  static func spawnFromAThreadOfItsOwn(_ arguments: [String], environment: [String: String]) throws -> Spawned {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<Spawned, any Error> = .failure(CancellationError())
    let thread = Thread {
      _ = clinux_request_slice(0, Self.parentSlice)
      result = Result { try Spawned(arguments, environment: environment) }
      done.signal()
    }
    thread.start()
    done.wait()
    return try result.get()
  }

  @Test func everyThreadOfAWatcherHasTheLongSliceAndAnotherCommandKeepsWhatItWasGiven() throws {
    let kept = Self.requestOnAThreadOfItsOwn().kept
    let t = TempFolder()
    #expect(
      try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path).code
        == 0)
    let env = Binary.environment(store: t.store, home: t.path, [:])
    for arguments in [["watch", "--plain"], ["--json", "watch", "--plain"]] {
      let watch = try Self.spawnFromAThreadOfItsOwn(arguments, environment: env)
      defer { watch.kill() }
      #expect(waitUntil(within: .seconds(20)) { watch.stdout.contains("\n") }, "\(watch.stdout)")
      let tids = Self.threads(of: watch.process.processIdentifier)
      #expect(tids.count > 1)
      for tid in tids {
        #expect(Self.slice(tid) == (kept ? WatcherSlice.nanoseconds : Self.slice(0)), "\(arguments) thread \(tid)")
      }
    }
    // The instance is another long-running command: it asks for nothing, and keeps the slice it
    // was started with.
    let instance = try Self.spawnFromAThreadOfItsOwn(["instance", "--scenario", "empty"], environment: env)
    defer { instance.kill() }
    #expect(waitUntil(within: .seconds(20)) { instance.stdout.contains("127.0.0.1") }, "\(instance.stdout)")
    let tids = Self.threads(of: instance.process.processIdentifier)
    #expect(!tids.isEmpty)
    for tid in tids {
      #expect(Self.slice(tid) == (kept ? Self.parentSlice : Self.slice(0)), "instance thread \(tid)")
    }
  }
}
