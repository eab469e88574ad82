import MarfaWire

@testable import MarfaQueue

/// The event-stream reader on any body, split anywhere. Byte 0 picks where the body is cut in
/// pieces; the rest is the stream. Oracle: the frames read are the same however the body was
/// split (read whole, a byte at a time, and at the chosen cuts), and it never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvents(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let seed = bytes.first else { return 0 }
  let body = Array(bytes.dropFirst())
  let whole = frames(body, cuts: [body.count])
  let single = frames(body, cuts: Array(stride(from: 1, through: body.count, by: 1)))
  let step = Int(seed % 31) + 1
  let chosen = frames(body, cuts: Array(stride(from: step, to: body.count, by: step)) + [body.count])
  guard whole == single, whole == chosen else { fatalError("the frames depend on where the body was split") }
  return 0
}

/// Every frame the reader keeps (id, event, data), feeding `body` cut at `cuts`.
private func frames(_ body: [UInt8], cuts: [Int]) -> [String] {
  let seen = Mutex<[String]>([])
  let reader = EventStreamReader(
    done: { _ in false },
    keep: { frame in
      seen.withLock { $0.append("\(frame.id ?? "-")|\(frame.event ?? "-")|\(frame.data)") }
      return false
    })
  guard reader.head(status: 200, headers: ["x-marfa-contract": HTTPClient.contract]) else { return ["refused"] }
  var from = 0
  for cut in cuts where cut > from && cut <= body.count {
    let go = body[from..<cut].withUnsafeBytes { reader.body($0) }
    from = cut
    if !go { return seen.withLock { $0 } + ["stopped"] }
  }
  return seen.withLock { $0 }
}
