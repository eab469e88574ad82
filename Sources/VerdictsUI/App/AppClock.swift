/// The time as ``AppCore`` reads it and the waits it makes: the continuous clock in the app, a
/// clock the test moves by hand in tests.
protocol AppClock: Sendable {
  /// The time since the clock's start.
  var now: Duration { get }
  /// Waits `duration` on this clock; throws when the waiting task is cancelled.
  func sleep(for duration: Duration) async throws
}
