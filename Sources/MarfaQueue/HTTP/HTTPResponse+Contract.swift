import FoundationEssentials

/// What a response says about the contract, waiting and failure text.
extension HTTPResponse {
  /// Whether the contract header names exactly this client's contract (repeats of it are fine).
  var namesOurContract: Bool {
    guard let value = header("x-marfa-contract") else { return false }
    // The usual answer names it once, as it is: no split.
    if value == HTTPClient.contract { return true }
    let parts = value.split(separator: ",").map { $0.trimmingSpaces() }
    return !parts.isEmpty && parts.allSatisfy { $0 == HTTPClient.contract }
  }

  /// Whether any contract header came.
  var namesAContract: Bool { header("x-marfa-contract") != nil }

  /// `Retry-After` in whole seconds, when given as a number.
  var retryAfterSeconds: Int? {
    guard let v = header("retry-after")?.trimmingSpaces(), let n = Int(v), n >= 0 else {
      return nil
    }
    return n
  }

  /// The start of the body where it is text: `text/*` or JSON, or no content type and valid UTF-8.
  var failureText: String? {
    guard !body.isEmpty else { return nil }
    let type = header("content-type")?.lowercased()
    let isText: Bool
    if let type {
      isText = type.hasPrefix("text/") || type.contains("json")
    } else {
      isText = true
    }
    guard isText else { return nil }
    // Decode no more than needed: 200 scalars need at most 800 bytes, plus slack for a cut sequence.
    var slice = Array(body.prefix(4096))
    var text = String(utf8: slice)
    // A cut inside the last character is not a reason to call the body binary.
    while text == nil, body.count > 4096, slice.count > 4092 {
      slice.removeLast()
      text = String(utf8: slice)
    }
    if text == nil, type != nil { text = String(decoding: slice, as: UTF8.self) }
    guard let text else { return nil }
    return LastFailure.cut(text)
  }
}
