/// What one transfer sends: a method, a URL, header lines, a body, and its deadlines.
struct CurlRequest {
  var method: String
  var url: String
  /// Header lines in the order sent (name, value).
  var headers: [(String, String)]
  var body: [UInt8]?
  /// A body sent from a file as it is read (then ``body`` is empty).
  var bodyFile: BodyFile? = nil
  /// The overall deadline, in milliseconds from the start: no trickle extends it.
  var deadlineMs: Int
  /// How long connecting may take, in milliseconds.
  var connectMs: Int
  /// Seconds during which less than 1 byte a second may arrive before the transfer is dropped;
  /// nil: only the overall deadline applies.
  var stallSeconds: Int? = nil
  /// The proxy to go through, as the person named it; nil: none, whatever `http_proxy`,
  /// `ALL_PROXY` and their kin say (libcurl reads those unless told otherwise).
  var proxy: String? = nil
}
