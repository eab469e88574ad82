import MarfaWire

extension String {
  /// Padded with blanks to a display width.
  func padding(_ width: Int) -> String {
    let w = CharWidth.of(Sanitizer.clean(self))
    return w >= width ? self : self + String(repeating: " ", count: width - w)
  }
}
