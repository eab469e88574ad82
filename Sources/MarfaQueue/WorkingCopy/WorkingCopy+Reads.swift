/// Local reads of the copy: what the instance last said of each row, with the writes not yet
/// answered laid over it. They read the store only: no instance is asked.
extension WorkingCopy {
  /// The item with this id as the copy shows it, or nil when the copy holds none.
  public func item(id: String) async throws -> JSONValue? {
    try await store.run { db in
      guard let row = try db.copyRows(.item, .id(id)).first else { return nil }
      return row.setting("tags", .array(try db.tagsShown(item: id).map(JSONValue.string)))
    }
  }

  /// The items the copy holds, in id order: of one type when `type` is given, in one state when
  /// `state` is given (every state when it is nil).
  public func items(type: String? = nil, state: String? = nil) async throws -> [JSONValue] {
    let rows = try await store.run { db in try db.copyRows(.item, .items(type: type)) }
    guard let state else { return rows }
    return rows.filter { $0["state"]?.stringValue == state }
  }

  /// The edge with this id as the copy shows it, or nil when the copy holds none.
  public func edge(id: String) async throws -> JSONValue? {
    try await store.run { db in try db.copyRows(.edge, .id(id)).first }
  }

  /// The edges the copy holds whose source is `item` (or, with `to`, whose target is), in id order.
  public func edges(of item: String, to: Bool = false) async throws -> [JSONValue] {
    try await store.run { db in try db.copyRows(.edge, to ? .edgesTo(target: item) : .edges(source: item)) }
  }
}
