/// A terminal multiplexer between the screen and the terminal, which may keep an OSC 52 copy
/// to itself: then whether the copy reached the clipboard cannot be known, and `y` says so.
package enum ClipboardRelay: String, Sendable, Hashable {
  /// tmux (`TMUX` set): it takes OSC 52 into its buffer (and on) only with `set -g set-clipboard on`;
  /// its default, `external`, drops it; its passthrough reaches the outer terminal only with
  /// `set -g allow-passthrough on`.
  case tmux
  /// GNU screen (`STY` set): it does not pass OSC 52 on, only its own passthrough (`ESC P … ESC \`).
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
      return "sent \(id) to the terminal through tmux (OSC 52, and in its passthrough); it reaches the "
        + "clipboard with `set -g set-clipboard on` (tmux's buffer) or `set -g allow-passthrough on`"
    case .screen:
      return "sent \(id) to the terminal through GNU screen's passthrough (OSC 52); whether the terminal "
        + "took it cannot be known: else select the ID in the detail (shift-drag)"
    }
  }
}
