/// Whether an answer says one thing: a member name given twice in one object makes it ambiguous.
extension JSONValue {
  /// The first member name given twice in one object anywhere in this value, or nil.
  ///
  /// JSON leaves the meaning of a repeated name open (readers keep the first, the last, or
  /// refuse), so an answer holding one cannot be read as one row.
  func repeatedMemberName() -> String? {
    switch self {
    case .object(let members):
      if members.count > 16 {
        var seen = Set<String>(minimumCapacity: members.count)
        for (name, _) in members where !seen.insert(name).inserted { return name }
      } else if members.count > 1 {
        // A few members (most answers' objects): compared pairwise, with nothing allocated.
        for i in 1..<members.count where members[..<i].contains(where: { $0.0 == members[i].0 }) {
          return members[i].0
        }
      }
      for (_, value) in members {
        if let name = value.repeatedMemberName() { return name }
      }
      return nil
    case .array(let items):
      for item in items {
        if let name = item.repeatedMemberName() { return name }
      }
      return nil
    default:
      return nil
    }
  }
}
