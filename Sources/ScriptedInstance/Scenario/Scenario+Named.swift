extension Scenario {
  /// Every named scenario.
  public static let all: [Scenario] = [.empty, .tour, .outage]

  /// The names of the named scenarios.
  public static var names: [String] { all.map(\.name) }

  /// The scenario with this name, or nil.
  public static func named(_ name: String) -> Scenario? { all.first { $0.name == name } }

  /// Every request is answered by a gateway's 503 page with no contract header, `GET /` included.
  package static let outage = Scenario(
    name: "outage", summary: "A gateway answers 503 pages for everything: the instance is unreachable.",
    rules: [.always(.any, .gatewayPage(status: 503))])
}
