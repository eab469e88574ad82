import FoundationEssentials

extension WriterRecord {
  /// What the writer last met of its instance, in its own words: reachable, or not and what it
  /// met (a refused connection, a timeout, a gateway's 5xx), since when, and when it tries next.
  public struct InstanceContact: Sendable, Hashable, Codable {
    /// Whether the instance answered the writer's last look (or its last drain got through).
    public var reachable: Bool
    /// Since when it has been so.
    public var since: Date
    /// What the writer met when it was not (the client's or the drain's sentence); nil when reachable.
    public var met: String?
    /// When the writer tries again on its own (auto-drain), if it will.
    public var nextTry: Date?

    /// Creates a contact.
    public init(reachable: Bool, since: Date, met: String? = nil, nextTry: Date? = nil) {
      self.reachable = reachable
      self.since = since
      self.met = met
      self.nextTry = nextTry
    }

    /// The contact after meeting the instance again: `since` kept while nothing changed.
    func met(reachable: Bool, _ what: String?, at now: Date, nextTry: Date?) -> InstanceContact {
      let same = self.reachable == reachable && (reachable || self.met == what)
      return InstanceContact(
        reachable: reachable, since: same ? since : now, met: reachable ? nil : what, nextTry: nextTry)
    }
  }

  /// Notes what the writer met of the instance; false when the record says that already (no write).
  mutating func noteInstance(reachable: Bool, met: String?, at now: Date, nextTry: Date?) -> Bool {
    let next =
      instance?.met(reachable: reachable, met, at: now, nextTry: nextTry)
      ?? InstanceContact(reachable: reachable, since: now, met: reachable ? nil : met, nextTry: nextTry)
    guard next != instance else { return false }
    instance = next
    return true
  }
}
