import CCurl

#if canImport(Glibc)
  import Glibc
#endif

/// One request through libcurl: its easy handle, the C memory the handle points at, and the
/// answer's head as it arrives.
///
/// `@unchecked Sendable`: it wraps a C handle; the caller configures it before handing it to a
/// ``CurlDriver``, and from then on only the driver's thread touches it until ``done`` is set.
final class CurlTransfer: @unchecked Sendable {
  /// The easy handle (`CURL *`).
  let easy: UnsafeMutableRawPointer
  /// Where the answer goes.
  let receiver: CurlReceiver
  /// Set once, when the transfer ended (or was cancelled or never started).
  let done = OneShot<CurlOutcome>()
  private var headerList: UnsafeMutablePointer<curl_slist>?
  private let errorBuffer: UnsafeMutablePointer<CChar>
  private var headBytes = 0
  private var status = 0
  private var headers: [String: String] = [:]
  private var headDelivered = false
  /// Why the transfer stopped itself (the head passed its limit); nil otherwise.
  private(set) var cut: String?
  /// The overall deadline in milliseconds: kept by the driver (``CurlDriver``), not by libcurl,
  /// whose clock would count time the process spent stopped.
  let deadlineMs: Int
  /// When the deadline falls, set by the driver as it starts the transfer and moved on by the
  /// time the process was found stopped; the driver's thread only.
  var deadline: ContinuousClock.Instant?
  /// When the driver started the transfer.
  var started: ContinuousClock.Instant?
  /// How long the process was found stopped while the transfer ran.
  var stoppedFor: Duration = .zero
  /// Body bytes received so far.
  var received = 0
  /// The file a body is read from, and how many of its bytes the request promised.
  private var bodyDescriptor: Int32 = -1
  private var bodyRemaining = 0
  private var bodySize = 0
  /// How many attempts at writing the request libcurl began (its own retries on a fresh
  /// connection count), and how many request bytes the handle had written before the first.
  private var attempts = 0
  private var writtenBefore = 0
  /// Set when libcurl was about to send the request again because the reused connection it had
  /// gone out on died with no answer: the transfer ended there instead (it is never sent twice).
  private(set) var droppedAfterSending = false

  /// Configures `easy` (fresh or reset) for `request`; throws when a header can't be sent as given.
  init(easy: UnsafeMutableRawPointer, request: CurlRequest, receiver: CurlReceiver) throws {
    self.easy = easy
    self.receiver = receiver
    deadlineMs = request.deadlineMs
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    for (name, value) in request.headers {
      guard !(name + value).utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
        throw TransportError(message: "the request's \(name) header holds a line break, so it was not sent")
      }
      try appendHeader("\(name): \(value)")
    }
    // No `Expect: 100-continue` wait before a large body.
    try appendHeader("Expect:")
    if request.body != nil, !request.headers.contains(where: { $0.0.lowercased() == "content-type" }) {
      try appendHeader("Content-Type:")
    }

    ccurl_set_string(easy, CURLOPT_URL, request.url)
    ccurl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
    ccurl_set_long(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
    ccurl_set_long(easy, CURLOPT_NOSIGNAL, 1)
    ccurl_set_long(easy, CURLOPT_FOLLOWLOCATION, 0)
    // The key goes only where the person said: a proxy only when named (`--proxy`); an empty
    // one, and no host left to the environment's `no_proxy`, keeps libcurl from reading
    // `http_proxy`, `https_proxy`, `ALL_PROXY` and their kin.
    ccurl_set_string(easy, CURLOPT_PROXY, request.proxy ?? "")
    ccurl_set_string(easy, CURLOPT_NOPROXY, request.proxy == nil ? "*" : "")
    // The overall deadline (`deadlineMs`) is the driver's: libcurl's own would fire on a process
    // continued after a stop before it read the answer waiting in the socket.
    ccurl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, request.connectMs)
    if let stall = request.stallSeconds {
      ccurl_set_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
      ccurl_set_long(easy, CURLOPT_LOW_SPEED_TIME, stall)
    }
    ccurl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
    ccurl_set_list(easy, CURLOPT_HTTPHEADER, headerList)
    let me = Unmanaged.passUnretained(self).toOpaque()
    ccurl_set_callback(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback)
    ccurl_set_pointer(easy, CURLOPT_HEADERDATA, me)
    ccurl_set_callback(easy, CURLOPT_WRITEFUNCTION, curlWriteCallback)
    ccurl_set_pointer(easy, CURLOPT_WRITEDATA, me)
    // libcurl sends a request again on a fresh connection when the reused one it went out on
    // died before any answer byte: the instance may have read and run it, so the transfer ends
    // there instead (``attempt()``). A pooled connection found dead before a byte was written is
    // still replaced silently.
    if ccurl_set_prereq_callback(easy, curlPrereqCallback) == CURLE_OK {
      ccurl_set_pointer(easy, CURLOPT_PREREQDATA, me)
    } else {
      // A libcurl older than 7.80 has no such callback: no connection is kept, so none is retried.
      ccurl_set_long(easy, CURLOPT_FORBID_REUSE, 1)
    }

    if let file = request.bodyFile {
      // Sent as it is read: never held whole; read again from the start for a resend.
      bodyDescriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
      guard bodyDescriptor >= 0 else {
        throw TransportError(message: "the bytes to upload could not be read (\(file.path))")
      }
      if let identity = file.identity {
        // The very file checked against its hash, still its size: else nothing is sent.
        var st = stat()
        guard fstat(bodyDescriptor, &st) == 0, UInt64(st.st_dev) == identity.device,
          UInt64(st.st_ino) == identity.inode, Int(st.st_size) == file.size
        else {
          throw TransportError(
            message: "the bytes to upload (\(file.path)) changed after they were checked, so they were not sent")
        }
      }
      bodySize = file.size
      bodyRemaining = file.size
      ccurl_set_long(easy, CURLOPT_POST, 1)
      ccurl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(file.size))
      ccurl_set_callback(easy, CURLOPT_READFUNCTION, curlReadCallback)
      ccurl_set_pointer(easy, CURLOPT_READDATA, me)
      ccurl_set_seek_callback(easy, curlSeekCallback)
      ccurl_set_pointer(easy, CURLOPT_SEEKDATA, me)
      if request.method != "POST" { ccurl_set_string(easy, CURLOPT_CUSTOMREQUEST, request.method) }
      return
    }
    switch (request.method, request.body) {
    case ("GET", nil):
      ccurl_set_long(easy, CURLOPT_HTTPGET, 1)
    case (let method, nil) where method != "POST":
      ccurl_set_string(easy, CURLOPT_CUSTOMREQUEST, method)
    case (let method, let body):
      // The body is copied into the handle: whole and rewindable, so a request libcurl moves to a
      // fresh connection (one found dead before the request was written) carries it whole;
      // never a Content-Length without its bytes.
      let bytes = body ?? []
      ccurl_set_long(easy, CURLOPT_POST, 1)
      ccurl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
      _ = bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { chars in
          if let base = chars.baseAddress, !chars.isEmpty {
            ccurl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base))
          } else {
            ccurl_set_string(easy, CURLOPT_COPYPOSTFIELDS, "")
          }
        }
      }
      if method != "POST" { ccurl_set_string(easy, CURLOPT_CUSTOMREQUEST, method) }
    }
  }

  /// Adds one header line; libcurl's NULL (out of memory) is a ``TransportError``, the lines
  /// added so far kept to be freed.
  private func appendHeader(_ line: String) throws {
    guard let longer = ccurl_slist_append(headerList, line) else {
      throw TransportError(message: CurlDriver.outOfMemory("could not add a header line (curl_slist_append)"))
    }
    headerList = longer
  }

  deinit {
    if bodyDescriptor >= 0 { close(bodyDescriptor) }
    ccurl_slist_free_all(headerList)
    errorBuffer.deallocate()
  }

  /// Up to `buffer.count` bytes of a file body; 0 at its promised end; nil when the file ended
  /// early or could not be read (the transfer is then aborted: never a short body).
  func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
    guard bodyRemaining > 0 else { return 0 }
    let want = min(buffer.count, bodyRemaining)
    var n: Int
    repeat { n = read(bodyDescriptor, buffer.baseAddress, want) } while n < 0 && errno == EINTR
    guard n > 0 else {
      cut = "the bytes to upload ended before their \(bodySize) bytes, so they were not sent"
      return nil
    }
    bodyRemaining -= n
    return n
  }

  /// Goes back to `offset` in a file body (libcurl resends on a fresh connection).
  func seekBody(to offset: Int) -> Bool {
    guard bodyDescriptor >= 0, offset >= 0, offset <= bodySize else { return false }
    guard lseek(bodyDescriptor, off_t(offset), SEEK_SET) == off_t(offset) else { return false }
    bodyRemaining = bodySize - offset
    return true
  }

  /// An attempt is about to write the request (CURLOPT_PREREQFUNCTION): false ends the transfer
  /// when an earlier attempt had written request bytes on a connection that then died with no
  /// answer (libcurl's silent retry); true for the first attempt, and for a retry after nothing
  /// was written (the connection was found dead first). libcurl counts the bytes written in
  /// `CURLINFO_REQUEST_SIZE` (7.88: the head; 8.x: head and body; the head goes first).
  func attempt() -> Bool {
    var written = 0
    ccurl_get_long(easy, CURLINFO_REQUEST_SIZE, &written)
    attempts += 1
    if attempts == 1 {
      writtenBefore = written
      return true
    }
    guard written > writtenBefore else { return true }
    droppedAfterSending = true
    return false
  }

  /// The words of a request that went out and met a dropped connection, not sent again.
  static let droppedAfterSendingWords =
    "the request went out on a kept-alive connection, which closed with no answer; it was not sent again"

  /// libcurl's own words for the last failure ("Empty reply from server"), or "".
  var detail: String { String(cString: errorBuffer) }

  /// How the transfer ended, given libcurl's result code.
  func outcome(_ code: CURLcode) -> CurlOutcome {
    if code == CURLE_OK { return CurlOutcome(code: code.rawValue, detail: "") }
    if droppedAfterSending {
      return CurlOutcome(code: CURLE_GOT_NOTHING.rawValue, detail: Self.droppedAfterSendingWords)
    }
    var cut = self.cut
    // libcurl refuses one header line past 100 KiB on its own, as "out of memory", before the
    // line reaches this transfer: the same cut, in the same words.
    if cut == nil, code == CURLE_OUT_OF_MEMORY, !headDelivered { cut = Self.headersCut }
    return CurlOutcome(code: code.rawValue, detail: detail, cut: cut)
  }

  /// How a transfer past its deadline ends, at `now`: in libcurl's code for a timeout, saying the
  /// time counted, what came, and the time the process was stopped besides.
  func timedOut(at now: ContinuousClock.Instant) -> CurlOutcome {
    let counted = (now - (started ?? now)) - stoppedFor
    var detail =
      "no whole answer within \(deadlineMs) ms; \(received) bytes received in \(Self.milliseconds(counted)) ms"
    if stoppedFor > .zero {
      detail += ", not counting \(Self.milliseconds(stoppedFor)) ms the process was stopped"
    }
    return CurlOutcome(code: CURLE_OPERATION_TIMEDOUT.rawValue, detail: detail)
  }

  /// A duration in whole milliseconds.
  static func milliseconds(_ d: Duration) -> Int64 {
    d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
  }

  /// What a head past ``ResponseLimits/headers`` leaves as the failure.
  static let headersCut = "the answer's headers passed \(ResponseLimits.words(ResponseLimits.headers)) and were cut"

  /// One line of the head (status line, header line, or the blank line that ends it).
  func takeHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
    headBytes += line.count
    if headBytes > ResponseLimits.headers {
      cut = Self.headersCut
      return false
    }
    var end = line.count
    while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
    let bytes = UnsafeRawBufferPointer(rebasing: line[0..<end])
    if bytes.starts(with: Self.statusLineStart) {
      // A new head (after a 1xx, the final one): what came before is dropped. Sized for a usual
      // head at once, not grown line by line.
      headers = Dictionary(minimumCapacity: 12)
      let parts = bytes.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: true)
      status = parts.count >= 2 ? Int(String(decoding: parts[1], as: UTF8.self)) ?? 0 : 0
      return true
    }
    if bytes.isEmpty {
      guard status >= 200, !headDelivered else { return true }
      headDelivered = true
      return receiver.head(status: status, headers: headers)
    }
    guard let (name, value) = Self.field(bytes) else { return true }
    if let earlier = headers[name] {
      headers[name] = earlier + ", " + value
    } else {
      headers[name] = value
    }
    return true
  }

  /// What starts a status line.
  private static let statusLineStart: [UInt8] = Array("HTTP/".utf8)

  /// A header line's name, lowercased, and its value, each without the spaces and tabs at its
  /// ends; nil for a line without a colon.
  ///
  /// Every answer's head goes through here, so a line of printable ASCII and tabs (nearly every
  /// line) is read byte by byte: the name lowercased as it is copied, one string each. Any other
  /// line is read as text (``textField(_:colon:)``), which gives the same for such a line
  /// (`HeaderFieldTests` hold the two to one result).
  static func field(_ bytes: UnsafeRawBufferPointer) -> (name: String, value: String)? {
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
    guard bytes.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }) else { return textField(bytes, colon: colon) }
    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
    var (nameStart, nameEnd) = (0, colon)
    while nameStart < nameEnd, isSpace(bytes[nameStart]) { nameStart += 1 }
    while nameEnd > nameStart, isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
    var (valueStart, valueEnd) = (colon + 1, bytes.count)
    while valueStart < valueEnd, isSpace(bytes[valueStart]) { valueStart += 1 }
    while valueEnd > valueStart, isSpace(bytes[valueEnd - 1]) { valueEnd -= 1 }
    let name = String(unsafeUninitializedCapacity: nameEnd - nameStart) { out in
      for i in 0..<(nameEnd - nameStart) {
        let b = bytes[nameStart + i]
        out[i] = b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b + 0x20 : b
      }
      return nameEnd - nameStart
    }
    let value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)
    return (name, value)
  }

  /// ``field(_:)`` for any line, read as text: the name as UTF-8 (repaired), lowercased; the
  /// value as UTF-8, else Latin-1; each trimmed of spaces and tabs.
  static func textField(_ bytes: UnsafeRawBufferPointer, colon: Int) -> (name: String, value: String) {
    let name = String(decoding: bytes[..<colon], as: UTF8.self).lowercased().trimmingSpaces()
    let value = Self.text(bytes[(colon + 1)...]).trimmingSpaces()
    return (name, value)
  }

  /// Header bytes as text: UTF-8 when they are, else Latin-1 (each byte its own code point).
  static func text(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
    if let utf8 = String(utf8: UnsafeRawBufferPointer(rebasing: bytes).assumingMemoryBound(to: UInt8.self)) {
      return utf8
    }
    return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
  }
}

extension String {
  /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
  fileprivate func trimmingSpaces() -> String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
    return String(s)
  }
}

/// CURLOPT_HEADERFUNCTION: one head line to its transfer.
private let curlHeaderCallback: ccurl_data_callback = { data, size, count, user in
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
  let n = size * count
  return transfer.takeHeaderLine(UnsafeRawBufferPointer(start: data, count: n)) ? n : 0
}

/// CURLOPT_WRITEFUNCTION: body bytes to the transfer's receiver.
private let curlWriteCallback: ccurl_data_callback = { data, size, count, user in
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
  let n = size * count
  transfer.received += n
  return transfer.receiver.body(UnsafeRawBufferPointer(start: data, count: n)) ? n : 0
}

/// CURLOPT_READFUNCTION: the next bytes of a file body.
private let curlReadCallback: ccurl_data_callback = { data, size, count, user in
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
  let n = transfer.readBody(into: UnsafeMutableRawBufferPointer(start: data, count: size * count))
  return n.map { $0 } ?? Int(CURL_READFUNC_ABORT)
}

/// CURLOPT_PREREQFUNCTION: an attempt is about to write the request on a connection.
private let curlPrereqCallback: ccurl_prereq_callback = { user, _, _, _, _ in
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
  return transfer.attempt() ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
}

/// CURLOPT_SEEKFUNCTION: back to the start of a file body for a resend.
private let curlSeekCallback: ccurl_seek_callback = { user, offset, origin in
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
  guard origin == SEEK_SET, transfer.seekBody(to: Int(offset)) else { return CURL_SEEKFUNC_CANTSEEK }
  return CURL_SEEKFUNC_OK
}
