/// What a cell means, which a theme turns into colours and attributes.
package enum Role: String, Sendable, Hashable, CaseIterable {
  case text
  case label
  case waiting
  case answered
  case merged
  case conflicted
  case refused
  case blocked
  case dead
  case selected
  case marked
  case border
  case borderFocus = "border.focus"
  case title
  case titleFocus = "title.focus"
  case status
  case statusOK = "status.ok"
  case statusError = "status.error"
  case key
  case dim
  case http2xx = "http.2xx"
  case http4xx = "http.4xx"
  case http5xx = "http.5xx"
  case httpNone = "http.none"
  case streak
  case escaped
  case dialog
  case dialogDanger = "dialog.danger"
  case jsonKey = "json.key"
  case jsonString = "json.string"
  case jsonNumber = "json.number"
  case jsonLiteral = "json.literal"

  /// The role for an HTTP status (nil: no answer came).
  static func http(_ status: Int?) -> Role {
    guard let status else { return .httpNone }
    switch status {
    case 200..<300: return .http2xx
    case 400..<500: return .http4xx
    default: return .http5xx
    }
  }
}
