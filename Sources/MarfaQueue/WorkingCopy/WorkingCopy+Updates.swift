import FoundationEssentials

extension WorkingCopy {
  /// The shortest and longest wait between reachability checks while the instance is away.
  static let backoffRange: ClosedRange<Double> = 1...60

  /// While held, follows the instance's reachability (`GET /`, backing off from 1 s to 60 s
  /// while it is away), drains when it comes back, and drains again after a drain left a write
  /// undelivered (after the report's `retryAfterSeconds`, else with the same backoff).
  ///
  /// It also drains when the held sequence starts with the instance reachable, and after a
  /// write is queued, released, or a key changed. One holder or many, one follower.
  public func updates() -> AsyncStream<Update> {
    let (stream, continuation) = AsyncStream<Update>.makeStream(bufferingPolicy: .bufferingNewest(64))
    let id = UUID()
    let start = updateHolders.withLock { holders -> Bool in
      holders.continuations[id] = continuation
      return holders.follower == nil
    }
    if start {
      let task = Task.detached { [weak self] () async -> Void in
        await self?.publishWriter { $0.autoDrain = true }
        await self?.followUpdates()
      }
      updateHolders.withLock { $0.follower = task }
    }
    continuation.onTermination = { [weak self] _ in
      guard let self else { return }
      let task = self.updateHolders.withLock { holders -> Task<Void, Never>? in
        holders.continuations[id] = nil
        if holders.continuations.isEmpty {
          defer { holders.follower = nil }
          return holders.follower
        }
        return nil
      }
      if let task {
        task.cancel()
        Task.detached { [weak self] in await self?.publishWriter { $0.autoDrain = false } }
      }
    }
    return stream
  }

  func tellHolders(_ update: Update) {
    let targets = updateHolders.withLock { Array($0.continuations.values) }
    for t in targets { t.yield(update) }
  }

  /// The one follower behind every held `updates()` sequence.
  func followUpdates() async {
    var changes = hub.stream().makeAsyncIterator()
    let wake = WakeFlag()
    // Listen for writes queued, released or a new key, which call for a drain.
    let listener = Task.detached {
      while let change = await changes.next() {
        switch change {
        case .local, .refreshed(.released), .refreshed(.keyChanged): wake.raise()
        default: break
        }
      }
    }
    defer { listener.cancel() }
    var backoff = Self.backoffRange.lowerBound
    var reachable: Bool?
    var needsDrain = true
    while !Task.isCancelled {
      do {
        _ = try await readRoot()
        if reachable != true {
          reachable = true
          tellHolders(.reachable(true))
          needsDrain = true
        }
        backoff = Self.backoffRange.lowerBound
      } catch {
        if reachable != false {
          reachable = false
          tellHolders(.reachable(false))
        }
        tellHolders(.retrying(inSeconds: Int(backoff)))
        // Watchers read it in the writer's words: what it met, and when it looks again.
        await publishInstance(
          reachable: false, met: Self.metText(error), nextTry: Date().addingTimeInterval(backoff))
        await wake.sleep(for: .seconds(backoff))
        backoff = min(backoff * 2, Self.backoffRange.upperBound)
        continue
      }
      if wake.take() { needsDrain = true }
      if needsDrain {
        needsDrain = false
        do {
          let report = try await queue.drain()
          tellHolders(.drained(report))
          if report.undelivered > 0 {
            let wait = Double(report.retryAfterSeconds ?? Int(backoff))
            tellHolders(.retrying(inSeconds: Int(wait)))
            if let u = report.unavailable {
              await publishInstance(
                reachable: false, met: u, nextTry: Date().addingTimeInterval(max(wait, Self.backoffRange.lowerBound)))
            }
            await wake.sleep(for: .seconds(max(wait, Self.backoffRange.lowerBound)))
            backoff = min(backoff * 2, Self.backoffRange.upperBound)
            needsDrain = true
            continue
          }
        } catch let e as QueueError {
          tellHolders(.failed(e))
        } catch {
          tellHolders(.failed(.invalid(message: "\(error)")))
        }
      }
      // The root answered and no drain said otherwise (a drain that runs says it as it ends:
      // the root can answer while writes meet a 5xx, and the record should not flap).
      await publishInstance(reachable: true, met: nil, nextTry: nil)
      // Idle: look again after a while, sooner when something is queued.
      await wake.sleep(for: .seconds(5))
    }
  }
}

extension WorkingCopy {
  /// What a look at the instance met, in the client's words (`the instance could not be reached: …`).
  static func metText(_ error: any Error) -> String {
    switch error {
    case QueueError.network(let message): return message
    case let e as QueueError: return e.message
    default: return "\(error)"
    }
  }
}

/// Who holds `updates()`, and the one task that follows for them all.
struct UpdateHolders {
  var continuations: [UUID: AsyncStream<Update>.Continuation] = [:]
  var follower: Task<Void, Never>?
}
