import Foundation
import MarfaQueue

#if canImport(Glibc)
  import Glibc
#endif

/// A hidden mode for the queueing rows and the kill test of shared commits:
/// `verdicts-bench queue-child STORE CALLERS [WRITES]` opens STORE (no instance) and has CALLERS
/// tasks queue creates at once, each in a loop, until WRITES are queued in all (for ever when
/// none is given). Each ID is printed on its own line the moment its call returns, so a process
/// that kills this one knows which calls were answered: every one of them must be in the store.
enum QueueChild {
  static func main(_ arguments: [String]) async -> Int32 {
    guard arguments.count >= 2, let callers = Int(arguments[1]), callers > 0 else {
      FileHandle.standardError.write(Data("usage: verdicts-bench queue-child STORE CALLERS [WRITES]\n".utf8))
      return 2
    }
    let limit = arguments.count > 2 ? Int(arguments[2]) : nil
    do {
      let copy = try await WorkingCopy.open(store: URL(fileURLWithPath: arguments[0]), server: nil)
      defer { copy.close() }
      let each = limit.map { ($0 + callers - 1) / callers }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for caller in 0..<callers {
          group.addTask {
            var i = 0
            while each.map({ i < $0 }) ?? true {
              let w = try await copy.createItem(
                type: "note", properties: .object([("caller", .int(caller)), ("n", .int(i))]))
              let line = Array((w.id + "\n").utf8)
              _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
              i += 1
            }
          }
        }
        try await group.waitForAll()
      }
      return 0
    } catch {
      FileHandle.standardError.write(Data("queue-child: \(error)\n".utf8))
      return 1
    }
  }
}
