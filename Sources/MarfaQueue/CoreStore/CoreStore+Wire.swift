extension CoreStore {
  /// The fields of a queue row that the Marfa core's store does not keep.
  public static let notKept = ["last_failure", "environmental_streak"]

  /// A write of a core store as `--json` reports it: the fields the core does not keep are null,
  /// never a zero or an empty failure, and `not_kept` names them, so a null reads as "this store
  /// does not keep it", not as "no failure".
  public static func wireJSON(_ w: QueuedWrite) -> JSONValue {
    var json = w.wireJSON
    for field in notKept { json = json.setting(field, .null) }
    return json.setting("not_kept", .array(notKept.map(JSONValue.string)))
  }
}
