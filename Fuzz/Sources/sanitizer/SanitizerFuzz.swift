import MarfaWire
@testable import VerdictsUI

/// The sanitizer and the width of text on any bytes read as UTF-8. Oracles: sanitized text holds
/// no C0, C1, ESC, DEL, bidi or format character (`Sanitizer.isSafe`), its ASCII form only
/// printable ASCII; cleaning is idempotent; the width of a text is the sum of its characters'.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSanitizer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let clean = Sanitizer.clean(text)
  guard Sanitizer.isSafe(clean) else { fatalError("sanitized text is not safe: \(clean.unicodeScalars.map(\.value))") }
  guard Sanitizer.clean(clean) == clean else { fatalError("cleaning clean text changed it") }
  let ascii = Sanitizer.clean(text, ascii: true)
  guard ascii.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { fatalError("ASCII form holds a non-printable byte") }
  for line in Sanitizer.lines(text) where !Sanitizer.isSafe(line) { fatalError("a sanitized line is not safe") }
  let width = CharWidth.of(clean)
  let sum = clean.reduce(0) { $0 + CharWidth.of($1) }
  guard width == sum, width >= 0 else { fatalError("width \(width) is not the sum of its characters' \(sum)") }
  return 0
}
