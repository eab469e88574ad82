/// No whole answer came: a dropped or refused connection, a timeout, or an answer cut at one of
/// ``AnswerLimits``. Always an environmental failure.
struct TransportError: Error {
  /// What happened, in words (the drain's `unavailable`, a command's network error).
  var message: String
  /// The status of an answer that began and was then cut; nil when none began.
  var status: Int? = nil
  /// What the write's `lastFailure` keeps as its text: what was cut, for a cut answer; nil
  /// when no answer came (a drop or a timeout leaves no text, DESIGN 3.1).
  var failureText: String? = nil

  /// An answer cut at a limit: the message and the failure's text say what was cut.
  static func cut(_ what: String, status: Int?) -> TransportError {
    TransportError(message: what, status: status, failureText: what)
  }
}
