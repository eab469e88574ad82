extension Scenario {
  /// The demo: every verdict, every blocked reason, waiting writes, a dead write, a gateway page, a 429,
  /// a refused key and a second key that works. See `docs/scripted-instance.md` for the drains it expects.
  public static let tour: Scenario = {
    let keyOne = "tour-key-1"
    let keyTwo = "tour-key-2"
    func note(_ id: String, _ title: String, body: String = "") -> SeedItem {
      SeedItem(id: id, type: "note", properties: ["title": .string(title), "body": .string(body)])
    }
    func update(_ id: String, _ properties: String, expect: String) -> ScenarioWrite {
      ScenarioWrite(kind: "update_item", itemId: id, properties: properties, version: 1, expect: expect)
    }
    let writes: [ScenarioWrite] = [
      update("tour-accepted", #"{"title":"Groceries for Sunday"}"#, expect: "accepted"),
      update(
        "tour-inflight", #"{"title":"Still sending"}"#, expect: "idempotency_key_in_flight every time: dead after 5"),
      update("tour-merged", #"{"priority":"medium"}"#, expect: "merged: priority (last_writer_wins)"),
      update(
        "tour-conflicted", #"{"body":"Day 1: Lisbon, then Sintra"}"#, expect: "conflicted: a copy keeps this body"),
      ScenarioWrite(
        kind: "create_item", itemId: "tour-invalid", type: "task", properties: #"{"notes":"a task with no title"}"#,
        expect: "refused validation_error: properties.title is required"),
      update("tour-trashed", #"{"title":"Old idea, revived"}"#, expect: "refused item_not_found (trashed)"),
      update(
        "tour-grant", #"{"title":"Payroll 2026"}"#,
        expect: "blocked credential_refused: missing grant type secret write"),
      update("tour-spent", #"{"title":"Spent key"}"#, expect: "blocked key_spent (422 idempotency_key_reused)"),
      update("tour-ancestor", #"{"title":"Draft, mine"}"#, expect: "blocked ancestor_unavailable (409)"),
      update("tour-overtaken", #"{"title":"Overtaken"}"#, expect: "blocked conflict_unresolved (409 version_conflict)"),
      ScenarioWrite(
        kind: "create_item", itemId: "tour-failing", type: "note", properties: #"{"title":"Never lands"}"#,
        expect: "500 three times while others land: blocked failing_alone after 3 drains; lands once released"),
      ScenarioWrite(
        kind: "add_tag", itemId: "tour-failing", tag: "urgent", expect: "waiting behind the blocked create"),
      ScenarioWrite(
        kind: "write_extension", itemId: "tour-failing", namespace: "tour", body: #"{"pinned":true}"#,
        expect: "waiting behind the blocked create"),
      update(
        "tour-gateway", #"{"title":"Through the gateway"}"#, expect: "a 502 gateway page (no contract), then accepted"),
      update("tour-ratelimited", #"{"title":"Slow down"}"#, expect: "429 Retry-After: 2, then accepted"),
      ScenarioWrite(
        kind: "create_item", itemId: "tour-new", type: "note", properties: #"{"title":"A new note","body":"hello"}"#,
        expect: "accepted"),
      ScenarioWrite(
        kind: "create_edge", itemId: "tour-new", edgeId: "tour-edge", targetId: "tour-accepted", edgeType: "links_to",
        properties: "{}", expect: "accepted"),
      ScenarioWrite(kind: "add_tag", itemId: "tour-accepted", tag: "weekly", expect: "accepted"),
      ScenarioWrite(kind: "delete_item", itemId: "tour-delete", version: 1, expect: "accepted"),
      ScenarioWrite(
        kind: "upload_blob", content: "hello from the tour\n", mimeType: "text/plain", expect: "accepted"),
    ]
    let writeDoors: Set<String> = ["POST", "PATCH", "PUT", "DELETE"]
    return Scenario(
      name: "tour",
      summary: "Every verdict and blocked reason, waiting and dead writes, a gateway page, a 429, a refused key.",
      types: [
        ItemType("note", mergePolicy: ["title": .lastWriterWins, "body": .keepBothCopies]),
        ItemType("task", requiredProperties: ["title"]),
        ItemType("secret"),
      ],
      items: [
        note("tour-accepted", "Groceries", body: "milk, eggs"),
        note("tour-inflight", "Sending"),
        SeedItem(
          id: "tour-merged", type: "task", properties: ["title": "Ship v1", "priority": "low", "status": "open"]),
        note("tour-conflicted", "Trip", body: "Day 1: Lisbon"),
        note("tour-trashed", "Old idea"),
        SeedItem(id: "tour-grant", type: "secret", properties: ["title": "Payroll"]),
        note("tour-spent", "Spent"),
        note("tour-ancestor", "Draft"),
        note("tour-overtaken", "Overtaken"),
        note("tour-gateway", "Gateway"),
        note("tour-ratelimited", "Rate limited"),
        note("tour-delete", "Delete me"),
        note("tour-moved", "Queued against the old instance"),
        note("tour-keyed", "Needs the second key"),
      ],
      concurrentEdits: [
        ConcurrentEdit(itemId: "tour-merged", properties: ["priority": "high"]),
        ConcurrentEdit(itemId: "tour-conflicted", properties: ["body": "Day 1: Porto"]),
        ConcurrentEdit(itemId: "tour-trashed", state: "trashed"),
        ConcurrentEdit(itemId: "tour-ancestor", properties: ["title": "Draft 2"], forgetHistory: true),
      ],
      rules: [
        .always(ScriptMatch(methods: writeDoors, path: "/items/tour-keyed", bearer: keyOne), .unauthorized),
        .always(.route("PATCH", "/items/tour-inflight"), .inFlight),
        .always(.route("PATCH", "/items/tour-grant"), .missingGrant(kind: "type", name: "secret", level: "write")),
        .once(.route("PATCH", "/items/tour-spent"), .keyReused),
        .always(.route("PATCH", "/items/tour-overtaken"), .versionConflict),
        ScriptRule(
          ScriptMatch(method: "POST", path: "/items", writeId: "tour-failing"),
          answers: [.serverFault, .serverFault, .serverFault]),
        .once(.route("PATCH", "/items/tour-gateway"), .gatewayPage(status: 502)),
        .once(.route("PATCH", "/items/tour-ratelimited"), .rateLimited(seconds: 2)),
      ],
      acceptedKeys: [keyOne, keyTwo],
      startKey: keyOne,
      writes: writes,
      steps: [
        "Fill with tour-key-1, queue the writes in order, drain: accepted, merged, conflicted, two refused, four blocked; tour-failing meets a 500 and ends the pass.",
        "Drain again: tour-failing is set aside (its writes wait); the 502 gateway page ends the pass.",
        "Drain again: tour-gateway is accepted; the 429 ends the pass (retry after 2 s); tour-failing is blocked failing_alone.",
        "Drain twice more: the rest are accepted; tour-inflight has met idempotency_key_in_flight five times and is dead.",
        "Queue the tour-moved write, switch the instance, drain (the copy expires), fill, drain: tour-moved is blocked instance_changed.",
        "Queue the tour-keyed write and drain: tour-key-1 is refused 401 and the queue is parked (credential_refused, stopped) until tour-key-2.",
        "Release tour-failing, tour-spent or tour-moved: each lands. Withdraw tour-overtaken; discard tour-invalid.",
      ])
  }()

  /// The tour's write queued before its instance switch: blocked `instance_changed` once refilled.
  public static let tourMovedWrite = ScenarioWrite(
    kind: "update_item", itemId: "tour-moved", properties: #"{"title":"Moved with the instance"}"#, version: 1,
    expect: "blocked instance_changed after the instance switch; lands once released")

  /// The tour's write that the first key may not make: 401, the queue parked, until `tour-key-2`.
  public static let tourKeyedWrite = ScenarioWrite(
    kind: "update_item", itemId: "tour-keyed", properties: #"{"title":"Sent with the second key"}"#, version: 1,
    expect: "refused 401 under tour-key-1 (the queue is parked); accepted under tour-key-2")
}
