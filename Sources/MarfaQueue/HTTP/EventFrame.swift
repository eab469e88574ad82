/// One server-sent event frame.
struct EventFrame: Sendable {
  var id: String?
  var event: String?
  var data: String
  /// The frame's data as JSON, or nil.
  var json: JSONValue? { JSONValue.parse(data) }
  /// `event_type` from the data, else the `event:` line.
  var type: String? { json?["event_type"]?.stringValue ?? event }
}
