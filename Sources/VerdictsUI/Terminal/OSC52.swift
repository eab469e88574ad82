import FoundationEssentials

/// The terminal's clipboard sequence (OSC 52): the terminal, and tmux or an SSH client's
/// terminal in between, set their clipboard to the text.
enum OSC52 {
  /// The longest run of base64 one GNU screen passthrough string carries.
  static let screenChunk = 76

  /// `ESC ] 52 ; c ; <base64 of text> BEL`.
  static func sequence(_ text: String) -> [UInt8] {
    Array("\u{1B}]52;c;".utf8) + base64(text) + [0x07]
  }

  /// The bytes that put `text` on the clipboard through `relay`: the plain sequence with no
  /// relay; under tmux the plain sequence (kept in tmux's buffer with `set-clipboard on`) and
  /// the same wrapped in tmux's passthrough (reaching the outer terminal with
  /// `allow-passthrough on`); under GNU screen the sequence in screen's passthrough, in chunks.
  static func sequence(_ text: String, through relay: ClipboardRelay?) -> [UInt8] {
    switch relay {
    case nil: return sequence(text)
    case .tmux: return sequence(text) + tmuxPassthrough(sequence(text))
    case .screen: return screenPassthrough(text)
    }
  }

  /// `ESC P tmux; <seq with every ESC doubled> ESC \`.
  static func tmuxPassthrough(_ seq: [UInt8]) -> [UInt8] {
    var out = Array("\u{1B}Ptmux;".utf8)
    for b in seq {
      if b == 0x1B { out.append(0x1B) }
      out.append(b)
    }
    return out + [0x1B, 0x5C]
  }

  /// `ESC P ESC ]52;c;<chunk> ESC \ ESC P <chunk> … BEL ESC \`: screen passes each `ESC P … ESC \`
  /// string on as it is, and keeps each short.
  static func screenPassthrough(_ text: String) -> [UInt8] {
    let b64 = base64(text)
    var out = Array("\u{1B}P\u{1B}]52;c;".utf8)
    var i = 0
    while i < b64.count {
      if i > 0 { out += [0x1B, 0x5C, 0x1B, 0x50] }
      out += b64[i..<min(i + screenChunk, b64.count)]
      i += screenChunk
    }
    return out + [0x07, 0x1B, 0x5C]
  }

  private static func base64(_ text: String) -> [UInt8] {
    Array(Data(text.utf8).base64EncodedString().utf8)
  }
}
