import CCurl

/// How a transfer ended, as libcurl said it.
struct CurlOutcome: Sendable {
  /// libcurl's result code (`CURLE_OK` when the answer came whole).
  var code: UInt32
  /// libcurl's own words for a failure, or "".
  var detail: String
  /// Why the transfer stopped itself at a limit of its own (the head's); nil otherwise.
  var cut: String?

  static let cancelled = CurlOutcome(code: CURLE_ABORTED_BY_CALLBACK.rawValue, detail: "the request was cancelled")
  static let closed = CurlOutcome(code: CURLE_ABORTED_BY_CALLBACK.rawValue, detail: "the client is closed")

  /// Whether the answer came whole.
  var ok: Bool { code == CURLE_OK.rawValue }

  /// A failure in words (the same words whatever the HTTP stack underneath).
  var message: String {
    if let cut { return cut }
    let said = detail.isEmpty ? "" : " (\(detail))"
    switch CURLcode(rawValue: code) {
    case CURLE_OPERATION_TIMEDOUT: return "the request timed out" + said
    case CURLE_COULDNT_CONNECT: return "the connection was refused" + said
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return "the host could not be found" + said
    case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_WEIRD_SERVER_REPLY:
      return "the connection was dropped" + said
    case CURLE_ABORTED_BY_CALLBACK: return detail
    case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: return "the URL could not be used" + said
    default:
      return "the request failed" + (detail.isEmpty ? " (libcurl error \(code))" : said)
    }
  }
}
