/// What takes an answer as libcurl delivers it, on the driver's thread: the head once, then the
/// body in pieces. Returning false from either stops the transfer at once.
protocol CurlReceiver: AnyObject {
  /// The head has come whole (a final status, not a 1xx): false stops the transfer.
  func head(status: Int, headers: [String: String]) -> Bool
  /// The next piece of the body (valid only during the call): false stops the transfer.
  func body(_ bytes: UnsafeRawBufferPointer) -> Bool
}
