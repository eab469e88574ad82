/// The built-in themes, embedded so the binary finds them from any directory.
///
/// Each text is identical to its file in `Themes/` (the documented source; a test keeps
/// them equal). After editing a file there, copy it into its literal here.
enum BuiltinThemes {
  /// The names of the built-in themes, in the order `--help` lists them.
  static let names = ["default", "light", "mono", "high-contrast", "colorblind", "solarized"]

  /// The text of a built-in theme, or nil.
  static func text(of name: String) -> String? {
    switch name {
    case "default": return defaultText
    case "light": return lightText
    case "mono": return monoText
    case "high-contrast": return highContrastText
    case "colorblind": return colorblindText
    case "solarized": return solarizedText
    default: return nil
    }
  }

  static let defaultText = #"""
    # verdicts: default theme.
    # The terminal's own background, the sixteen basic colours, so it reads the same on a
    # Linux console, PuTTY and a 256-colour terminal. Every role is set (docs/themes.md).
    # role         = FG             BG          attributes

    text           = default        default
    label          = cyan           default
    waiting        = yellow         default
    answered       = green          default
    merged         = bright-green   default
    conflicted     = magenta        default
    refused        = red            default     bold
    blocked        = bright-yellow  default     bold
    dead           = bright-white   red         bold
    selected       = black          cyan
    marked         = bright-magenta default     bold
    border         = bright-black   default
    border.focus   = bright-cyan    default     bold
    title          = default        default     bold
    title.focus    = bright-cyan    default     bold
    status         = bright-white   blue
    status.ok      = bright-green   blue        bold
    status.error   = bright-white   red         bold
    key            = bright-cyan    default     bold
    dim            = bright-black   default
    http.2xx       = green          default
    http.4xx       = yellow         default     bold
    http.5xx       = bright-red     default     bold
    http.none      = magenta        default     bold
    streak         = bright-yellow  default     bold
    escaped        = black          yellow
    dialog         = default        default     reverse
    dialog.danger  = bright-white   red         bold
    json.key       = cyan           default
    json.string    = green          default
    json.number    = magenta        default
    json.literal   = yellow         default

    """#

  static let lightText = #"""
    # verdicts: light theme, for terminals with a light background.
    # Darker foregrounds from the 256-colour cube; mapped down on 16- and 8-colour terminals.
    # role         = FG    BG        attributes

    text           = default default
    label          = 24    default
    waiting        = 130   default
    answered       = 28    default
    merged         = 22    default
    conflicted     = 90    default
    refused        = 124   default  bold
    blocked        = 166   default  bold
    dead           = 231   124      bold
    selected       = 16    153
    marked         = 127   default  bold
    border         = 246   default
    border.focus   = 25    default  bold
    title          = 16    default  bold
    title.focus    = 25    default  bold
    status         = 16    252
    status.ok      = 22    252      bold
    status.error   = 231   160      bold
    key            = 25    default  bold
    dim            = 245   default
    http.2xx       = 28    default
    http.4xx       = 130   default  bold
    http.5xx       = 160   default  bold
    http.none      = 90    default  bold
    streak         = 166   default  bold
    escaped        = 16    222
    dialog         = 16    254
    dialog.danger  = 231   160      bold
    json.key       = 24    default
    json.string    = 28    default
    json.number    = 90    default
    json.literal   = 130   default

    """#

  static let monoText = #"""
    # verdicts: mono theme. Attributes only, no colour: used for NO_COLOR and --no-color.
    # Verdicts are told apart by glyph and word; attributes only add weight.
    # role         = FG      BG       attributes

    text           = default default
    label          = default default  dim
    waiting        = default default
    answered       = default default
    merged         = default default
    conflicted     = default default  underline
    refused        = default default  bold
    blocked        = default default  bold underline
    dead           = default default  bold reverse
    selected       = default default  reverse
    marked         = default default  bold
    border         = default default  dim
    border.focus   = default default  bold
    title          = default default  bold
    title.focus    = default default  bold underline
    status         = default default  reverse
    status.ok      = default default  reverse bold
    status.error   = default default  reverse bold underline
    key            = default default  bold
    dim            = default default  dim
    http.2xx       = default default
    http.4xx       = default default  bold
    http.5xx       = default default  bold underline
    http.none      = default default  bold
    streak         = default default  bold
    escaped        = default default  reverse
    dialog         = default default  reverse
    dialog.danger  = default default  reverse bold
    json.key       = default default  bold
    json.string    = default default
    json.number    = default default
    json.literal   = default default  underline

    """#

  static let highContrastText = #"""
    # verdicts: high-contrast theme. Pure black background, bright primaries, bold everywhere
    # meaning lives; for low vision and washed-out projectors.
    # role         = FG             BG      attributes

    text           = bright-white   black
    label          = bright-cyan    black   bold
    waiting        = bright-yellow  black   bold
    answered       = bright-green   black   bold
    merged         = bright-green   black   bold underline
    conflicted     = bright-magenta black   bold
    refused        = bright-red     black   bold
    blocked        = black          bright-yellow bold
    dead           = bright-white   red     bold
    selected       = black          bright-white bold
    marked         = bright-magenta black   bold underline
    border         = white          black
    border.focus   = bright-yellow  black   bold
    title          = bright-white   black   bold
    title.focus    = bright-yellow  black   bold underline
    status         = black          bright-white
    status.ok      = black          bright-green bold
    status.error   = bright-white   red     bold
    key            = bright-yellow  black   bold
    dim            = white          black
    http.2xx       = bright-green   black   bold
    http.4xx       = bright-yellow  black   bold
    http.5xx       = bright-red     black   bold underline
    http.none      = bright-magenta black   bold
    streak         = bright-yellow  black   bold underline
    escaped        = black          bright-cyan bold
    dialog         = black          bright-white bold
    dialog.danger  = bright-white   red     bold
    json.key       = bright-cyan    black   bold
    json.string    = bright-green   black
    json.number    = bright-magenta black
    json.literal   = bright-yellow  black

    """#

  static let colorblindText = #"""
    # verdicts: colour-blind-safe theme (Okabe-Ito palette).
    # Blocked and dead are never told apart by red against green alone: blue, orange and
    # vermillion carry the meaning, with glyphs and words besides; safe for deuteranopia,
    # protanopia and tritanopia. #rrggbb values are mapped down to 256, 16 or 8 colours.
    # role         = FG       BG       attributes

    text           = default  default
    label          = #56b4e9  default
    waiting        = #f0e442  default
    answered       = #0072b2  default  bold
    merged         = #56b4e9  default
    conflicted     = #cc79a7  default
    refused        = #d55e00  default  bold
    blocked        = #e69f00  default  bold underline
    dead           = #ffffff  #d55e00  bold
    selected       = #000000  #56b4e9
    marked         = #cc79a7  default  bold
    border         = 244      default
    border.focus   = #56b4e9  default  bold
    title          = default  default  bold
    title.focus    = #56b4e9  default  bold
    status         = #ffffff  #0072b2
    status.ok      = #f0e442  #0072b2  bold
    status.error   = #ffffff  #d55e00  bold
    key            = #56b4e9  default  bold
    dim            = 244      default
    http.2xx       = #0072b2  default
    http.4xx       = #e69f00  default  bold
    http.5xx       = #d55e00  default  bold underline
    http.none      = #cc79a7  default  bold
    streak         = #e69f00  default  bold
    escaped        = #000000  #f0e442
    dialog         = #000000  #e0e0e0
    dialog.danger  = #ffffff  #d55e00  bold
    json.key       = #56b4e9  default
    json.string    = #009e73  default
    json.number    = #cc79a7  default
    json.literal   = #e69f00  default

    """#

  static let solarizedText = #"""
    # verdicts: solarized dark (Ethan Schoonover's palette, as #rrggbb).
    # Set on its own base03 background; mapped down to 256, 16 or 8 colours.
    # role         = FG       BG       attributes

    text           = #93a1a1  #002b36
    label          = #268bd2  #002b36
    waiting        = #b58900  #002b36
    answered       = #859900  #002b36
    merged         = #2aa198  #002b36
    conflicted     = #6c71c4  #002b36
    refused        = #dc322f  #002b36  bold
    blocked        = #cb4b16  #002b36  bold
    dead           = #fdf6e3  #dc322f  bold
    selected       = #002b36  #93a1a1
    marked         = #d33682  #002b36  bold
    border         = #586e75  #002b36
    border.focus   = #268bd2  #002b36  bold
    title          = #eee8d5  #002b36  bold
    title.focus    = #268bd2  #002b36  bold
    status         = #eee8d5  #073642
    status.ok      = #859900  #073642  bold
    status.error   = #fdf6e3  #dc322f  bold
    key            = #2aa198  #002b36  bold
    dim            = #586e75  #002b36
    http.2xx       = #859900  #002b36
    http.4xx       = #b58900  #002b36  bold
    http.5xx       = #dc322f  #002b36  bold
    http.none      = #d33682  #002b36  bold
    streak         = #cb4b16  #002b36  bold
    escaped        = #002b36  #b58900
    dialog         = #eee8d5  #073642
    dialog.danger  = #fdf6e3  #dc322f  bold
    json.key       = #268bd2  #002b36
    json.string    = #2aa198  #002b36
    json.number    = #d33682  #002b36
    json.literal   = #b58900  #002b36

    """#
}
