/// A named starting point for the instance: types, seed rows, script rules, accepted keys, and writes for a client.
public struct Scenario: Sendable, Hashable {
  /// The instance id every instance starts with unless a scenario names another.
  public static let defaultInstanceId = "00000000-0000-7000-8000-000000000000"

  /// The scenario's name.
  public var name: String
  /// What it shows, in a sentence.
  public var summary: String
  /// The instance id the instance starts with.
  public var instanceId: String
  /// The item types (merge policies, required properties); an unknown type merges last-writer-wins.
  public var types: [ItemType]
  /// Items held from the start.
  public var items: [SeedItem]
  /// Edges held from the start.
  public var edges: [SeedEdge]
  /// Edits another writer makes when the first request that is not a `GET` arrives.
  package var concurrentEdits: [ConcurrentEdit]
  /// Script rules, checked in order.
  public var rules: [ScriptRule]
  /// The accepted API keys; nil accepts any key (or none).
  package var acceptedKeys: Set<String>?
  /// The key a client should start with, if the scenario cares.
  public var startKey: String?
  /// Writes for a client to queue, in order.
  public var writes: [ScenarioWrite]
  /// Drain instructions for a person or a demo, in words.
  public var steps: [String]

  /// A scenario; everything but the name is optional.
  public init(
    name: String, summary: String = "", instanceId: String = Scenario.defaultInstanceId, types: [ItemType] = [],
    items: [SeedItem] = [], edges: [SeedEdge] = [], concurrentEdits: [ConcurrentEdit] = [], rules: [ScriptRule] = [],
    acceptedKeys: Set<String>? = nil, startKey: String? = nil, writes: [ScenarioWrite] = [], steps: [String] = []
  ) {
    self.name = name
    self.summary = summary
    self.instanceId = instanceId
    self.types = types
    self.items = items
    self.edges = edges
    self.concurrentEdits = concurrentEdits
    self.rules = rules
    self.acceptedKeys = acceptedKeys
    self.startKey = startKey
    self.writes = writes
    self.steps = steps
  }

  /// No rows, no rules, any key: the model answers everything.
  public static let empty = Scenario(name: "empty", summary: "An empty instance that answers every route normally.")
}
