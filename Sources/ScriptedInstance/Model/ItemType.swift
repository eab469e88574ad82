/// An item type the instance knows: its merge policy and the properties a create must carry.
public struct ItemType: Sendable, Hashable {
  /// The type's name (`note`, `task`…).
  public var name: String
  /// The strategy for each named property; others take `defaultStrategy`.
  package var mergePolicy: [String: MergeStrategy]
  /// The strategy for properties `mergePolicy` does not name.
  package var defaultStrategy: MergeStrategy
  /// Properties a create must carry, else `400 validation_error` naming each.
  package var requiredProperties: [String]

  /// A type; by default every field is last-writer-wins and nothing is required.
  public init(
    _ name: String, mergePolicy: [String: MergeStrategy] = [:], defaultStrategy: MergeStrategy = .lastWriterWins,
    requiredProperties: [String] = []
  ) {
    self.name = name
    self.mergePolicy = mergePolicy
    self.defaultStrategy = defaultStrategy
    self.requiredProperties = requiredProperties
  }

  /// The strategy for one property.
  package func strategy(for field: String) -> MergeStrategy { mergePolicy[field] ?? defaultStrategy }

  /// The type as `GET /types` lists it.
  var json: ScriptedJSON {
    [
      "name": .string(name),
      "merge_policy": [
        "fields": .object(mergePolicy.mapValues { .string($0.rawValue) }),
        "default": .string(defaultStrategy.rawValue),
      ],
      "required": .array(requiredProperties.map { .string($0) }),
    ]
  }
}
