import MarfaWire

/// The JSON reader on any bytes. Oracles: a value read is written and read back as the same value
/// (numbers as their text, escapes, surrogates), in each escaping; `.visible` and `.ascii` text
/// holds no character a terminal acts on; a refusal says where, inside the input; `String(utf8:)`
/// takes and refuses the bytes exactly as the standard library's `String(validating:as:)` does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if String(utf8: bytes) != String(validating: bytes, as: UTF8.self) {
    fatalError("String(utf8:) and String(validating:) judge \(bytes) apart")
  }
  do {
    let value = try JSONValue(parsing: bytes)
    for escaping in [JSONEscaping.wire, .visible, .ascii] {
      let text = value.text(escaping: escaping)
      guard let again = JSONValue.parse(text) else { fatalError("written JSON does not read back: \(text)") }
      guard again == value else { fatalError("JSON read back differs: \(text)") }
      if escaping != .wire, !Sanitizer.isSafe(text) { fatalError("escaped JSON is not safe to print: \(text)") }
      if escaping == .ascii, text.utf8.contains(where: { $0 >= 0x7F || $0 < 0x20 }) {
        fatalError("ASCII JSON holds a byte outside printable ASCII")
      }
    }
  } catch {
    if error.offset < 0 || error.offset > bytes.count { fatalError("a refusal points outside the input") }
  }
  return 0
}
