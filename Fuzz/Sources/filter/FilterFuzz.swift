@testable import MarfaQueue

/// The `/` filter and `queue --filter` syntax on any text. Oracles: a filter that reads is read
/// again from its own text as an equal filter; matching it against a write never traps; its SQL
/// form (what `queue --filter` runs) is made without a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFilter(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let filter = WriteFilter(text) else { return 0 }
  let printed = filter.terms.map { ($0.negated ? "-" : "") + words($0.term) }.joined(separator: " ")
  guard let again = WriteFilter(printed), again == filter else {
    fatalError("a filter does not read back from its own terms: \(text) → \(printed)")
  }
  let write = QueuedWrite(
    id: "01a2340d-0000-7000-8000-000000000001", kind: .updateItem, itemId: text, idempotencyKey: "k",
    lastFailure: LastFailure(status: 500, text: text), environmentalStreak: 3, queuedAt: "2026-12-02T00:00:00.000Z")
  _ = filter.matches(write)
  return 0
}

/// A term as a person would type it.
private func words(_ term: WriteFilter.Term) -> String {
  switch term {
  case .text(let t): return t
  case .reason(let r): return "reason:" + r
  case .kind(let k): return "kind:" + k
  case .status(let n): return "status:\(n)"
  case .verdict(let v): return "verdict:" + v
  case .row(let r): return "row:" + r
  case .streak(let c, let n): return "streak:" + c.rawValue + "\(n)"
  case .body(let b): return "body:" + b
  }
}
