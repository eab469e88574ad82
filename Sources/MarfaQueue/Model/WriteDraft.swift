/// A write about to be queued: what it names and the body it will send.
struct WriteDraft: Sendable {
  var kind: WriteKind
  var itemId: String?
  var targetId: String?
  var edgeId: String?
  var namespace: String?
  var tag: String?
  var blob: String?
  /// The version named by the caller; nil to take the copy's.
  var namedVersion: Int?
  /// Whether the write needs a base version (updates and deletes).
  var needsVersion: Bool = false
  /// Whether a named version that is not the copy's was read by the caller (`--as-read`).
  var asRead: Bool = false
  /// Writes this one waits on besides those its row gives it (a file item on its upload).
  var waitsOn: [String] = []
  /// Builds the body once the base version is known.
  var body: @Sendable (_ baseVersion: Int?) -> JSONValue
  /// The row the write lays on the copy, if it makes or changes one.
  var layRow: (@Sendable (_ current: JSONValue?) -> JSONValue?)? = nil
}
