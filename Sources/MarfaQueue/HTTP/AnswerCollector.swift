/// Gathers one answer's head and body, cutting the body at ``AnswerLimits/body``.
///
/// `@unchecked Sendable`: written only on the driver's thread while the transfer runs, and read
/// only after the transfer's ``CurlTransfer/done`` is set (the one-shot's lock orders the two).
final class AnswerCollector: CurlReceiver, @unchecked Sendable {
  private(set) var status = 0
  private(set) var headers: [String: String] = [:]
  private(set) var bytes: [UInt8] = []
  private(set) var headCame = false
  /// What was cut, when the body passed its limit.
  private(set) var cut: String?

  func head(status: Int, headers: [String: String]) -> Bool {
    self.status = status
    self.headers = headers
    headCame = true
    if let declared = headers["content-length"].flatMap({ Int($0) }), declared > 0 {
      guard declared <= AnswerLimits.body else { return cutBody() }
      bytes.reserveCapacity(declared)
    }
    return true
  }

  func body(_ piece: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count + piece.count <= AnswerLimits.body else { return cutBody() }
    bytes.append(contentsOf: piece.assumingMemoryBound(to: UInt8.self))
    return true
  }

  private func cutBody() -> Bool {
    cut = "the answer passed \(AnswerLimits.words(AnswerLimits.body)) and was cut"
    bytes = []
    return false
  }
}
