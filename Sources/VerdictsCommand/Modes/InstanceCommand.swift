import Dispatch
import FoundationEssentials
import MarfaWire
import ScriptedInstance
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `verdicts instance`: the scripted instance in the foreground until SIGINT or SIGTERM.
enum InstanceCommand {
  static func run(_ context: CommandContext, port: Int?, scenario name: String?) async throws -> ExitCode {
    let scenario: Scenario
    do {
      scenario = try Scenario.load(name ?? "tour")
    } catch {
      throw CommandFailure(code: "usage", message: context.visible("\(error)"), exit: .usage)
    }
    let instance = ScriptedInstance(scenario: scenario, port: UInt16(port ?? 0))
    // A slow instance, for watching a drain as it runs (tests and demos): each write waits this long.
    if let ms = context.environment["VERDICTS_INSTANCE_WRITE_DELAY_MS"].flatMap(Double.init), ms > 0, ms <= 10_000 {
      instance.writeDelay = ms / 1000
    }
    let url: URL
    do {
      url = try instance.start()
    } catch {
      throw CommandFailure(code: "io", message: "the instance could not listen: \(error)", exit: .environment)
    }
    if context.globals.json {
      context.printJSON(
        .object([
          ("url", .string(url.absoluteString)), ("scenario", .string(scenario.name)),
          ("instance_id", .string(instance.instanceId)),
        ]))
    } else {
      context.print("scripted instance \(scenario.name) listening at \(url.absoluteString) (ctrl-c stops it)")
      if let key = scenario.startKey { context.print("start key: \(key)") }
    }
    await SignalWait.untilInterrupted()
    instance.stop()
    return .done
  }
}

/// Waits for SIGINT, SIGTERM or SIGHUP without a handler that could run mid-work.
enum SignalWait {
  /// Waits for SIGINT, SIGTERM or SIGHUP, or (asked five times a second) until `ended` is true.
  static func untilInterrupted(orWhen ended: (@Sendable () -> Bool)? = nil) async {
    await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
      let once = OnceFlag()
      // Every source is made before any is resumed, and `finish` reads a list that no longer
      // changes: a source that fired while the list was still being filled raced its filling
      // (ThreadSanitizer reported it, the timer firing at once on another thread).
      let signals = [SIGINT, SIGTERM, SIGHUP].map { sig -> any DispatchSourceSignal in
        signal(sig, SIG_IGN)
        return DispatchSource.makeSignalSource(signal: sig, queue: .global())
      }
      let timer = ended.map { _ in DispatchSource.makeTimerSource(queue: .global()) }
      let sources: [any DispatchSourceProtocol] = signals + (timer.map { [$0] } ?? [])
      let finish = {
        if once.take() {
          for s in sources { s.cancel() }
          c.resume()
        }
      }
      for source in signals { source.setEventHandler { finish() } }
      if let timer, let ended {
        timer.schedule(deadline: .now(), repeating: .milliseconds(200))
        timer.setEventHandler { if ended() { finish() } }
      }
      for source in sources { source.resume() }
    }
  }
}

/// A flag that can be taken once, from any thread.
final class OnceFlag: Sendable {
  private let taken = Atomic(false)

  /// True for the first caller only.
  func take() -> Bool {
    taken.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
  }
}
