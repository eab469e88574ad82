/// A line of input at the bottom of the screen.
package struct Prompt: Sendable, Hashable {
  /// What the input is for.
  public enum Kind: Sendable, Hashable {
    /// A substring filter over kind, id, rows, reason, status and text.
    case filter
    /// Another API key; never shown, only counted as dots.
    case key
    /// A write ID to go to, as a person types it.
    case goto
  }

  /// What the input is for.
  public var kind: Kind
  /// What has been typed.
  public var text: String

  /// Creates a prompt.
  public init(kind: Kind, text: String = "") {
    self.kind = kind
    self.text = text
  }

  /// The label drawn before the input.
  var label: String {
    switch kind {
    case .filter: return "filter: "
    case .key: return "new key (hidden): "
    case .goto: return "go to write: "
    }
  }

  /// The input as drawn: the key is masked.
  var shown: String {
    switch kind {
    case .filter, .goto: return text
    case .key: return String(repeating: "•", count: text.count)
    }
  }
}
