/// The app's clock: Swift's continuous clock, counted from when this value was made.
struct ContinuousAppClock: AppClock {
  private let start = ContinuousClock.now

  var now: Duration { ContinuousClock.now - start }

  func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
