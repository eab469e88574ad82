import FoundationEssentials

/// The terminal's clipboard sequence (OSC 52): the terminal, and tmux or an SSH client's
/// terminal in between, set their clipboard to the text.
enum OSC52 {
  /// `ESC ] 52 ; c ; <base64 of text> BEL`.
  static func sequence(_ text: String) -> [UInt8] {
    Array("\u{1B}]52;c;".utf8) + Array(Data(text.utf8).base64EncodedString().utf8) + [0x07]
  }
}
