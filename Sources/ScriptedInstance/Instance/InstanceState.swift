/// What a scripted instance holds and changes as it answers: the model, the script rules,
/// idempotency records, the record of requests, the accepted keys, and which instance it is.
///
/// Held under the instance's mutex: every request is answered with it held, whole.
struct InstanceState {
  /// A rule with how many of its answers were given.
  struct ActiveRule {
    var rule: ScriptRule
    var used = 0
  }

  /// The scenario the instance was loaded with.
  let scenario: Scenario
  var model: MarfaModel
  var rules: [ActiveRule]
  var records: [String: IdempotencyRecord] = [:]
  var applied: [String: Int] = [:]
  var recorded: [RecordedRequest] = []
  var unscriptedSeqs: [Int] = []
  var pendingEdits: [ConcurrentEdit]
  var keys: Set<String>?
  var currentInstanceId: String
  /// The frames a held event stream has not sent yet (the instance sets it to read under its lock).
  var follow: @Sendable (StreamPosition) -> [String] = { _ in [] }

  /// The state of an instance freshly loaded with `scenario`.
  init(scenario: Scenario) {
    self.scenario = scenario
    self.model = Self.model(of: scenario)
    self.rules = scenario.rules.map { ActiveRule(rule: $0) }
    self.pendingEdits = scenario.concurrentEdits
    self.keys = scenario.acceptedKeys
    self.currentInstanceId = scenario.instanceId
  }

  private static func model(of scenario: Scenario) -> MarfaModel {
    var model = MarfaModel(types: scenario.types)
    for item in scenario.items { model.seed(item) }
    for edge in scenario.edges { model.seed(edge) }
    return model
  }

  /// Becomes another instance at the same address; without `keepData`, every row, event, blob
  /// and idempotency record is dropped (the scenario's types stay).
  mutating func becomeInstance(_ id: String, keepData: Bool) {
    currentInstanceId = id
    if !keepData {
      model = MarfaModel(types: scenario.types)
      records = [:]
      applied = [:]
      pendingEdits = []
    }
  }
}
