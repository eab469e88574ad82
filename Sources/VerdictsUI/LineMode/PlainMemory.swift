/// What `watch --plain` printed last (each line's ``PlainLook``), for the most recent writes only: two generations of
/// at most ``capacity`` writes each, the older dropped whole when the newer fills. Its size does
/// not grow with the queue (a 1M-write store is listed without keeping it).
struct PlainMemory {
  /// What a write's line showed when last printed, and whether it had a verdict then.
  struct Entry: Equatable {
    var look: PlainLook
    var hadVerdict: Bool
  }

  /// The most writes one generation holds.
  let capacity: Int
  private var current: [String: Entry] = [:]
  private var previous: [String: Entry] = [:]

  init(capacity: Int = 5_000) {
    self.capacity = max(capacity, 1)
  }

  /// What was printed last for the write, when it is still remembered.
  subscript(id: String) -> Entry? { current[id] ?? previous[id] }

  /// How many writes are remembered (at most twice ``capacity``).
  var count: Int { current.count + previous.count }

  /// Remembers the write's line.
  mutating func remember(_ id: String, _ entry: Entry) {
    current[id] = entry
    if current.count >= capacity {
      previous = current
      current = [:]
    }
  }

  /// Forgets a write that left the queue.
  mutating func forget(_ id: String) {
    current[id] = nil
    previous[id] = nil
  }
}
