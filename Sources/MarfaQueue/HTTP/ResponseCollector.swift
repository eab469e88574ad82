import MarfaWire

/// Gathers one response's head and body, cutting the body at ``ResponseLimits/body``.
///
/// Written on the driver's thread while the transfer runs and read by the waiting task once the
/// transfer's ``CurlTransfer/done`` is set, all under one lock: the one-shot orders the two, and
/// the lock makes that order one ThreadSanitizer sees (it reported the unlocked fields as racing).
final class ResponseCollector: CurlReceiver, Sendable {
  /// What has come so far.
  struct Gathered {
    var status = 0
    var headers: [String: String] = [:]
    var bytes: [UInt8] = []
    var headCame = false
    /// What was cut, when the body passed its limit.
    var cut: String?
  }

  private let gathered = Mutex(Gathered())

  /// What has come so far (the whole response once the transfer is done).
  var gatheredSoFar: Gathered { gathered.withLock { $0 } }

  func head(status: Int, headers: [String: String]) -> Bool {
    gathered.withLock { g in
      g.status = status
      g.headers = headers
      g.headCame = true
      if let declared = headers["content-length"].flatMap({ Int($0) }), declared > 0 {
        guard declared <= ResponseLimits.body else { return Self.cutBody(&g) }
        g.bytes.reserveCapacity(declared)
      }
      return true
    }
  }

  func body(_ piece: UnsafeRawBufferPointer) -> Bool {
    gathered.withLock { g in
      guard g.bytes.count + piece.count <= ResponseLimits.body else { return Self.cutBody(&g) }
      g.bytes.append(contentsOf: piece.assumingMemoryBound(to: UInt8.self))
      return true
    }
  }

  private static func cutBody(_ g: inout Gathered) -> Bool {
    g.cut = "the answer passed \(ResponseLimits.words(ResponseLimits.body)) and was cut"
    g.bytes = []
    return false
  }
}
