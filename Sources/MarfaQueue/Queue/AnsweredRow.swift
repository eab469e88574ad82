/// A row an answer carried (a created or changed item or edge): its value, and its JSON text as
/// the instance sent it, so the copy stores the bytes it was given instead of writing them again.
struct AnsweredRow: Sendable, Hashable {
  var value: JSONValue
  var text: String
}
