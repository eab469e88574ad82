/// What the server does with one request.
enum HTTPReply: Sendable {
  /// Answer with a complete response.
  case response(HTTPResponse)
  /// Close the connection without answering.
  case drop
  /// Never answer; hold the connection until the client closes it or the server stops.
  case stall
  /// Answer with a server-sent event stream.
  case events(EventStream)
}

/// A server-sent event stream: a head, the first frames, and then more frames as they come.
struct EventStream: Sendable {
  /// The response head (status and headers); the body is the frames.
  var head: HTTPResponse
  /// Frames written at once, each already in SSE form (ending with a blank line).
  var frames: [String]
  /// Whether the stream is held open (a keepalive comment every 250 ms) after the first frames.
  var hold: Bool
  /// Called about every 250 ms while held: frames to send now (none → a keepalive comment).
  var more: @Sendable () -> [String]
}
