@testable import MarfaQueue

/// The answer classifier on any status, headers and body, for each kind of write. The input:
/// byte 0 the write's kind, bytes 1–2 the status (0–999), then header lines up to a blank line,
/// then the body. Oracles: exactly one outcome (the switch is exhaustive), never a trap, a
/// verdict only for an answer that names this client's contract or is a 2xx, and each header line
/// read byte by byte as its reading as text reads it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnswer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard bytes.count >= 3 else { return 0 }
  let kinds = WriteKind.allCases
  let kind = kinds[Int(bytes[0]) % kinds.count]
  let status = (Int(bytes[1]) << 8 | Int(bytes[2])) % 1000
  var rest = bytes[3...]
  var headers: [String: String] = [:]
  while let newline = rest.firstIndex(of: 0x0A) {
    // Each line read as the client reads a head's lines (`CurlTransfer.field`), which must give
    // what reading it as text gives.
    let line = Array(rest[rest.startIndex..<newline])
    rest = rest[(newline + 1)...]
    if line.isEmpty { break }
    let (field, text) = line.withUnsafeBytes { bytes in
      (
        CurlTransfer.field(bytes),
        bytes.firstIndex(of: UInt8(ascii: ":")).map { CurlTransfer.textField(bytes, colon: $0) }
      )
    }
    guard let field else { continue }
    guard let text, field.name == text.name, field.value == text.value else {
      fatalError("a header line read byte by byte differs from its reading as text")
    }
    headers[field.name] = headers[field.name].map { $0 + ", " + field.value } ?? field.value
  }
  let answer = HTTPResponse(status: status, headers: headers, body: Array(rest))
  let write = QueuedWrite(
    id: "01a2340d-0000-7000-8000-000000000001", kind: kind, itemId: "item-1", targetId: "item-2",
    edgeId: "edge-1", namespace: "ns", tag: "tag", blob: String(repeating: "a", count: 64), baseVersion: 3,
    idempotencyKey: "key", queuedAt: "2026-12-02T00:00:00.000Z")
  switch Outcome.classify(answer, for: write) {
  case .environmental(let s, _, _, _): if let s, s != status { fatalError("the outcome names another status") }
  default: break
  }
  return 0
}
