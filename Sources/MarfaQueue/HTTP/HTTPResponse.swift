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
  ///
  /// A name given in lower case is looked up as it is: the reads made on every answer pass
  /// their names so, and lowercasing one of 16 bytes or more allocates.
  package func header(_ name: String) -> String? {
    name.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
      ? headers[name.lowercased()] : headers[name]
  }

  /// The body as UTF-8 text, or nil.
  var text: String? { String(utf8: body) }

  /// The body as JSON, or nil; half a surrogate pair in a `\\u` escape reads as U+FFFD.
  var json: JSONValue? { JSONValue.parse(replacingLoneSurrogates: body) }
}
