/// One HTTP response, read whole within ``ResponseLimits``.
package struct HTTPResponse: Sendable {
  /// The status code.
  package var status: Int
  /// Header values by lowercased name; repeated lines joined with ", ". A value that is not
  /// UTF-8 is read as Latin-1 bytes (HTTP's historical charset), never as a failure.
  package var headers: [String: String]
  /// The body.
  package var body: [UInt8]

  /// The value of the header `name` (any case), repeats joined.
  package func header(_ name: String) -> String? { headers[name.lowercased()] }

  /// The body as UTF-8 text, or nil.
  var text: String? { String(validating: body, as: UTF8.self) }

  /// The body as JSON, or nil; half a surrogate pair in a `\\u` escape reads as U+FFFD.
  var json: JSONValue? { JSONValue.parse(replacingLoneSurrogates: body) }
}
