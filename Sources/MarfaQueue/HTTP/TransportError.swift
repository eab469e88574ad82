/// No whole answer came: a dropped or refused connection, a timeout, or an answer cut at one of
/// ``ResponseLimits``. Always an environmental failure.
struct TransportError: Error {
  /// What happened, in words: the drain's `unavailable`, a command's network error, and the
  /// write's `lastFailure.text` ("the connection was dropped (Empty reply from server)", "the
  /// answer passed 8 MiB and was cut").
  var message: String
  /// The status of an answer that began and was then cut; nil when none began.
  var status: Int? = nil

  /// An answer cut at a limit after its head said `status` (nil: cut within the head).
  static func cut(_ what: String, status: Int?) -> TransportError {
    TransportError(message: what, status: status)
  }
}
