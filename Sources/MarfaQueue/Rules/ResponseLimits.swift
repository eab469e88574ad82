/// The most of an answer the client reads: past any of these the answer is cut, the request
/// fails as an environmental failure, and its message says what was cut.
///
/// A Marfa answer is small: one row, an error envelope, or a page of at most 200 rows. A server
/// that sends more is broken or hostile, and reading on would only grow the process (an
/// endless chunked answer once grew `verdicts` to 4 GB in 12 s).
enum ResponseLimits {
  /// The body of one answer: 8 MiB. The largest a Marfa answer gets is a page of 200 items with
  /// their metadata; at 8 MiB that is 40 KiB an item, several times any item seen.
  static let body = 8 << 20

  /// The head of one answer, status line and every header line together: 64 KiB. Marfa sends a
  /// dozen short headers (well under 1 KiB); libcurl itself refuses a single header line past
  /// 100 KiB.
  static let headers = 64 << 10

  /// One server-sent event frame: 1 MiB. A frame carries one event (one item or edge row) or a
  /// marker (`stream_cursor`, `stream_live`); a frame that never ends is cut here.
  static let eventFrame = 1 << 20

  /// The whole `/events` stream a fill or catch-up reads before the frame it waits for: 32 MiB.
  /// Frames are kept until the stream says where it stands; an instance too far behind answers
  /// `catchup_too_old` instead of replaying more than this.
  static let eventStream = 32 << 20

  /// A size as people read it: "8 MiB", "64 KiB", "512 bytes".
  static func words(_ bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}
