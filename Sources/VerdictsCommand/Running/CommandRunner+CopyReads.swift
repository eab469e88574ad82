import MarfaQueue

/// The commands that read the copy's rows: `items get`, `items list`, `edges list`, `edges to`.
/// They open the store to read (no writer role, nothing changed) and ask no instance.
extension CommandRunner {
  func readCopy(_ id: CommandID) async throws -> ExitCode {
    let a = args
    let named = a.string("ID") ?? ""
    let rows: [JSONValue] = try await withReader { copy in
      switch id {
      case .itemsGet:
        guard let item = try await copy.item(id: named) else {
          throw QueueError.rowNotFound(kind: "item", id: named)
        }
        return [item]
      case .itemsList:
        let state = a.flag("--all-states") ? nil : (a.string("--state") ?? "active")
        return try await copy.items(type: a.string("--type"), state: state)
      case .edgesList: return try await copy.edges(of: named)
      case .edgesTo: return try await copy.edges(of: named, to: true)
      default: throw QueueError.invalid(message: "internal: \(id.rawValue) does not read the copy")
      }
    }
    if json {
      context.printJSON(id == .itemsGet ? rows[0] : .array(rows))
      return .done
    }
    if rows.isEmpty {
      context.print(id == .itemsList ? "the copy holds no such items" : "the copy holds no such edges")
    }
    for row in rows { context.print(context.visible(Self.rowLine(row))) }
    return .done
  }

  /// One row as a line: its id, type, version and state, then its properties as JSON.
  static func rowLine(_ row: JSONValue) -> String {
    let id = row["id"]?.stringValue ?? "?"
    let type = row["type"]?.stringValue ?? row["edge_type"]?.stringValue ?? "?"
    var line = "\(id)  \(type)  v\(row["version"]?.intValue.map(String.init) ?? "-")"
    if let state = row["state"]?.stringValue { line += "  \(state)" }
    if let source = row["source_id"]?.stringValue, let target = row["target_id"]?.stringValue {
      line += "  \(source) -> \(target)"
    }
    return line + "  " + (row["properties"]?.text ?? "{}")
  }
}
