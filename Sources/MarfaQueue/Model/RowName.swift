/// One row a write names, in the order every view lists them: the edge, the item (and the
/// target it points to), the namespace, the tag, the blob.
///
/// The screen, the tables and `watch --plain` word them differently (`edge e1` or `edge:e1`), but
/// which rows and in what order is this one rule (``QueuedWrite/rowNames``).
public enum RowName: Sendable, Hashable {
  /// An edge's ID.
  case edge(String)
  /// An item's ID, and the target an edge write points it to.
  case item(String, target: String?)
  /// A namespace.
  case namespace(String)
  /// A tag.
  case tag(String)
  /// A blob's hash, the first 12 of its hex digits.
  case blob(String)

  /// The rows named by these fields, in order.
  public static func list(
    itemId: String?, targetId: String?, edgeId: String?, namespace: String?, tag: String?, blob: String?
  ) -> [RowName] {
    var names: [RowName] = []
    if let edgeId { names.append(.edge(edgeId)) }
    if let itemId { names.append(.item(itemId, target: targetId)) }
    if let namespace { names.append(.namespace(namespace)) }
    if let tag { names.append(.tag(tag)) }
    if let blob { names.append(.blob(String(BlobFolder.hex(of: blob).prefix(12)))) }
    return names
  }

  /// In words: `edge e1`, `01… → 02…`, `ns app`, `#tag`, `blob 3f2a…`.
  public func words(arrow: String = "→") -> String {
    switch self {
    case .edge(let id): return "edge \(id)"
    case .item(let id, let target): return target.map { "\(id) \(arrow) \($0)" } ?? id
    case .namespace(let n): return "ns \(n)"
    case .tag(let t): return "#\(t)"
    case .blob(let b): return "blob \(b)"
    }
  }

  /// The rows in words, one space between them.
  public static func words(_ names: [RowName], arrow: String = "→") -> String {
    names.map { $0.words(arrow: arrow) }.joined(separator: " ")
  }
}
