import MarfaWire

/// How a Swift case name becomes a column name, worked out once per column type.
enum SQLColumnName {
  /// `itemId` as `item_id`: an underscore before each capital, lowered.
  static func snakeCase(_ name: String) -> String {
    var out = ""
    for c in name {
      if c.isUppercase {
        out += "_" + c.lowercased()
      } else {
        out.append(c)
      }
    }
    return out
  }

  /// The names of `C`'s columns, indexed by raw value.
  static func names<C: SQLColumn>(of _: C.Type) -> [String] {
    let key = ObjectIdentifier(C.self)
    if let known = known.withLock({ $0[key] }) { return known }
    let names = C.allCases.map { snakeCase(String(describing: $0)) }
    known.withLock { $0[key] = names }
    return names
  }

  private static let known = Mutex<[ObjectIdentifier: [String]]>([:])
}
