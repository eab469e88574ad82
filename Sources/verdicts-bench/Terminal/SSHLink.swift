/// A slow link behind a big buffer, as sshd is to a program on a pty: sshd reads the pty at once
/// into its buffer (up to its window, ~2 MiB) and the link sends the buffer on at its own rate.
/// The program's `write` blocks only when the buffer is full, so it cannot see the link.
///
/// Times are seconds from any origin; the link is a FIFO sending `rate` bytes a second.
struct SSHLink: Sendable {
  /// The buffer in front of the link, in bytes.
  let capacity: Int
  /// Bytes a second the link sends.
  let rate: Double
  /// When the link has sent every byte accepted so far.
  private(set) var busyUntil: Double = -.infinity
  /// Bytes accepted so far.
  private(set) var accepted = 0

  init(capacity: Int = 2 * 1_048_576, rate: Double) {
    self.capacity = capacity
    self.rate = rate
  }

  /// Bytes in the buffer at `t` (accepted, not yet sent).
  func backlog(at t: Double) -> Double { max(0, busyUntil - t) * rate }

  /// Bytes the buffer can take at `t`.
  func room(at t: Double) -> Int { max(0, capacity - Int(backlog(at: t).rounded(.up))) }

  /// How long from `t` until the buffer can take `n` more bytes (0 when it can now).
  func wait(for n: Int, at t: Double) -> Double {
    let need = backlog(at: t) + Double(min(n, capacity)) - Double(capacity)
    return need <= 0 ? 0 : need / rate
  }

  /// Takes `n` bytes into the buffer at `t` and returns when the last of them reaches the far end.
  mutating func accept(_ n: Int, at t: Double) -> Double {
    busyUntil = max(t, busyUntil) + Double(n) / rate
    accepted += n
    return busyUntil
  }
}
