extension Refusal {
  /// The contract's `WriteRefusal` shape.
  public var wireJSON: JSONValue {
    .object([
      ("reason", .string(reason)),
      ("code", Wire.str(code)),
      ("message", Wire.str(message)),
      ("fields", .array(fields.map { .object([("field", .string($0.field)), ("message", .string($0.message))]) })),
      ("trashed", .bool(trashed)),
      ("grant", grant.map { $0.wireJSON } ?? .null),
    ])
  }

  /// Reads a `WriteRefusal`; parts of the wrong shape read as absent.
  public init?(wireJSON json: JSONValue) {
    guard let reason = json["reason"]?.stringValue else { return nil }
    self.init(
      reason: reason, code: json["code"]?.stringValue, message: json["message"]?.stringValue,
      fields: Refusal.fields(json["fields"]), trashed: json["trashed"]?.boolValue ?? false,
      grant: json["grant"].flatMap(MissingGrant.init(wireJSON:)))
  }

  /// Reads the refusal parts from an instance's error envelope (contract 3.6).
  public init(reason: String, envelope: JSONValue?, trashed forceTrashed: Bool = false) {
    let error = envelope?["error"]
    let details = error?["details"]
    self.init(
      reason: KeptAnswer.bounded(reason), code: error?["code"]?.stringValue.map { KeptAnswer.bounded($0) },
      message: error?["message"]?.stringValue.map { KeptAnswer.bounded($0) },
      fields: Array(Refusal.fields(details?["errors"]).prefix(KeptAnswer.fieldCount)),
      trashed: forceTrashed || details?["trashed"]?.boolValue == true,
      grant: details?["grant"].flatMap(MissingGrant.init(wireJSON:)))
  }

  static func fields(_ json: JSONValue?) -> [FieldRefusal] {
    guard let items = json?.arrayValue else { return [] }
    return items.compactMap { item in
      guard let field = item["field"]?.stringValue ?? item["path"]?.stringValue else { return nil }
      return FieldRefusal(
        field: KeptAnswer.bounded(field), message: KeptAnswer.bounded(item["message"]?.stringValue ?? ""))
    }
  }
}

extension MissingGrant {
  /// The contract's `{kind, name, level}` shape.
  public var wireJSON: JSONValue {
    .object([("kind", .string(kind.rawValue)), ("name", .string(name)), ("level", .string(level.rawValue))])
  }

  /// Reads a grant; nil unless `kind`, `name` and `level` are all valid.
  public init?(wireJSON json: JSONValue) {
    guard let k = json["kind"]?.stringValue, let kind = Kind(rawValue: k),
      let name = json["name"]?.stringValue, !name.isEmpty,
      let l = json["level"]?.stringValue, let level = Level(rawValue: l)
    else { return nil }
    self.init(kind: kind, name: name, level: level)
  }
}
