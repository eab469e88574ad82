/// HTTP statuses as the queue reads them.
enum HTTPStatus {
  /// Whether an answer with this status, from an instance naming the contract, is the network's
  /// rather than the instance's verdict (contract 3.3, docs/rules.md): any 5xx, 408, 425 and 429.
  /// Such an answer counts nothing against the ceiling; the request may be made again.
  ///
  /// An answer that names no contract (a proxy's or gateway's page) is environmental whatever
  /// its status: callers check that first.
  static func isEnvironmental(_ status: Int) -> Bool {
    status >= 500 || status == 408 || status == 425 || status == 429
  }

  /// Whether the status asks the client to slow down (429): it sets the last failure but adds
  /// nothing to the environmental streak.
  static func isRateLimit(_ status: Int) -> Bool { status == 429 }
}
