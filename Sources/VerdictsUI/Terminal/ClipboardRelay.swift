/// A terminal multiplexer between the screen and the terminal, which may keep an OSC 52 copy
/// to itself: then whether the copy reached the clipboard cannot be known, and `y` says so.
public enum ClipboardRelay: String, Sendable, Hashable {
  /// tmux (`TMUX` set): it passes OSC 52 on only with `set -g set-clipboard on`; its default,
  /// `external`, keeps a copy sent from inside it.
  case tmux
  /// GNU screen (`STY` set): it does not pass OSC 52 on.
  case screen

  /// The relay the environment names, nil when there is none.
  public static func from(environment: [String: String]) -> ClipboardRelay? {
    if let t = environment["TMUX"], !t.isEmpty { return .tmux }
    if let s = environment["STY"], !s.isEmpty { return .screen }
    return nil
  }

  /// What `y` says it did with `id` through this relay.
  func sent(_ id: String) -> String {
    switch self {
    case .tmux:
      return "sent \(id) to the terminal (OSC 52); tmux passes it to the clipboard only with "
        + "`set -g set-clipboard on` (its default keeps it)"
    case .screen:
      return "sent \(id) to the terminal (OSC 52); GNU screen does not pass it to the clipboard: "
        + "select the ID in the detail instead (shift-drag)"
    }
  }
}
