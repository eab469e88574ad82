import MarfaQueue

/// What `queue` was asked to list (`--kind`, `--pane`, `--filter`, `--sort`), applied to the
/// writes read, and what it says when nothing is left: an empty queue, an empty pane, or writes
/// that the terms let none of through, with how many there were.
struct QueueSelection {
  var kinds: Set<String>
  var pane: String?
  /// The filter as typed, and as parsed.
  var filterText: String?
  var filter: WriteFilter?
  var order: PaneOrder?

  /// The selection the command line asks for.
  ///
  /// - Throws: a usage error (exit 2) for a filter naming a field there is not, or a value its
  ///   field cannot take (``WriteFilter/parse(_:)``).
  init(_ args: ParsedArguments) throws {
    kinds = Set(args.strings("--kind"))
    pane = args.string("--pane")
    filterText = args.string("--filter")
    do {
      filter = try WriteFilter.parse(filterText)
    } catch {
      throw CommandFailure(usage: UsageError(path: ["queue"], message: error.message))
    }
    order = args.string("--sort").flatMap(PaneOrder.init(name:))
  }

  /// The writes it lets through, in its order.
  func apply(_ writes: [QueuedWrite]) -> [QueuedWrite] {
    var kept = writes
    if !kinds.isEmpty { kept = kept.filter { kinds.contains($0.kindName) } }
    if let pane { kept = kept.filter { $0.pane.name == pane } }
    if let filter { kept = kept.filter(filter.matches) }
    if let order { kept = order.sorted(kept) }
    return kept
  }

  /// The sentence for an empty listing of `all` (every write read): `the queue is empty`,
  /// `no blocked writes`, or `no write matches reason:key_spent (22 in the queue)`,
  /// `no dead write matches nothing (1 dead of 22 in the queue)`.
  func nothingText(all: [QueuedWrite], visible: (String) -> String) -> String {
    guard !all.isEmpty else { return "the queue is empty" }
    let inPane = pane.map { name in all.filter { $0.pane.name == name }.count }
    var terms: [String] = []
    if !kinds.isEmpty { terms.append(kinds.sorted().map { "kind:" + $0 }.joined(separator: " or ")) }
    if filter != nil, let filterText { terms.append(visible(filterText.trimmingSpaces())) }
    guard !terms.isEmpty else { return "no \(pane ?? "") writes" }
    let counted = inPane.map { "\($0) \(pane ?? "") of \(all.count)" } ?? "\(all.count)"
    return "no \(pane.map { $0 + " " } ?? "")write matches \(terms.joined(separator: " ")) (\(counted) in the queue)"
  }
}
