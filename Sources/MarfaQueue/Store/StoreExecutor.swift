import Dispatch

/// The store's serial queue as a task executor.
///
/// A drain runs with this executor preferred: between its network waits its code runs on the
/// store's own queue, so each ``Store/run(_:)`` it makes runs there at once, without a hop and
/// without blocking a thread of the shared pool (no `DispatchQueue.sync` from async code).
final class StoreExecutor: TaskExecutor {
  let queue: DispatchQueue

  init(queue: DispatchQueue) { self.queue = queue }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
