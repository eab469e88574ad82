@testable import MarfaQueue

/// The ID resolver (`show ID`, `release ID`, `:` in the screen) on any typed text over any IDs.
/// The input's first line is what a person typed; each further line is an ID the queue holds.
/// Oracles: an ID typed whole (any case, spaces around) is found; a found ID is one the queue
/// holds and the typed part names it; an ambiguous answer lists only IDs the part names, at
/// least two; an unknown one lists at most `listed` IDs the queue holds; the error a typed ID
/// throws agrees with its resolution.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResolver(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  guard !lines.isEmpty else { return 0 }
  let typed = lines.removeFirst()
  let ids = Array(lines.prefix(64))
  let resolver = WriteIDResolver(ids: ids)
  let part = WriteIDResolver.typedPart(typed)
  let wanted = part.text.lowercased()
  func names(_ id: String) -> Bool {
    let lower = id.lowercased()
    if lower == wanted { return true }
    switch part.side {
    case .prefix: return lower.hasPrefix(wanted)
    case .suffix: return lower.hasSuffix(wanted)
    case .either: return lower.hasPrefix(wanted) || lower.hasSuffix(wanted)
    }
  }
  let resolution = resolver.resolve(typed)
  switch resolution {
  case .found(let id):
    guard ids.contains(id), names(id) else { fatalError("found \(id), which \(typed) does not name") }
  case .ambiguous(let matches):
    guard matches.count >= 2, matches.allSatisfy({ ids.contains($0) && names($0) }) else {
      fatalError("an ambiguous answer that lists \(matches) for \(typed)")
    }
  case .unknown(let closest):
    guard closest.count <= WriteIDResolver.listed, closest.allSatisfy(ids.contains) else {
      fatalError("an unknown answer lists \(closest)")
    }
    if let whole = ids.first(where: { $0.lowercased() == wanted }) {
      fatalError("\(whole), typed whole, was not found")
    }
  }
  do {
    let id = try resolver.id(for: typed)
    guard case .found(id) = resolution else { fatalError("id(for:) found what resolve did not") }
  } catch let error as QueueError {
    switch (error, resolution) {
    case (.ambiguousID, .ambiguous), (.unknownID, .unknown): _ = error.message
    default: fatalError("id(for:) threw \(error) for \(resolution)")
    }
  } catch {
    fatalError("id(for:) threw something other than a QueueError: \(error)")
  }
  return 0
}
