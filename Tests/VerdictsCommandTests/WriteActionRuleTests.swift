import Foundation
import ScriptedInstance
import TestSupport
import Testing
import VerdictsUI

@testable import MarfaQueue

/// One rule for the four write actions: the engine (a real store), the
/// command line and the screen (its state machine, with and without marks) give the same
/// answer for every verdict × action, and it is ``QueuedWrite/allows(_:)``'s.
///
/// The subjects have no waiting dependant: that part of the rule is the store's alone (the
/// screen passes such a write on and the engine refuses it), tested in MarfaQueueTests.
@Suite(.serialized) struct WriteActionRuleTests {
  /// A write in one state, made on a fresh store.
  struct Subject: Sendable {
    var name: String
    var kind: WriteKind = .createItem
    var verdict: Verdict?
    var sent = true
    var waiting = false
    var dependencyGone = false
  }

  static let subjects: [Subject] =
    [
      Subject(name: "not yet answered", verdict: nil, sent: false),
      Subject(name: "waiting", verdict: nil, sent: false, waiting: true),
      Subject(name: "accepted", verdict: .accepted),
      Subject(name: "merged", verdict: .merged(fields: ["title"])),
      Subject(name: "conflicted", verdict: .conflicted(siblingId: "sib", fields: ["title"])),
      Subject(name: "refused by the instance, with content", verdict: .refused(Refusal(reason: "validation_error"))),
      Subject(
        name: "refused by the instance, no content", kind: .addTag, verdict: .refused(Refusal(reason: "item_not_found"))
      ),
      Subject(
        name: "refused unsent by the drain", kind: .addTag,
        verdict: .refused(Refusal(reason: "the create_item it waits for was dead")), sent: false),
      Subject(
        name: "refused unsent, what it waited for gone", kind: .addTag,
        verdict: .refused(Refusal(reason: "the create_item it waits for was withdrawn")), sent: false,
        dependencyGone: true),
      Subject(name: "dead", verdict: .dead),
    ]
    + BlockedReason.allCases.map {
      Subject(name: "blocked \($0.wireName)", verdict: .blocked(reason: $0, refusal: nil))
    }

  /// Makes the subject on a fresh store; returns it as the store reads it.
  static func make(_ s: Subject, store: URL, server: Server) async throws -> QueuedWrite {
    let copy = try await WorkingCopy.open(store: store, server: server)
    defer { copy.close() }
    let w =
      s.kind == .addTag
      ? try await copy.addTag(item: "row-1", tag: "t")
      : try await copy.createItem(type: "note", properties: .object([("title", .string("a"))]))
    try await copy.store.run { db in
      try db.transaction(durable: true) {
        try db.recordVerdict(id: w.id, verdict: s.verdict, sent: s.sent, answer: nil, now: "2026-12-01T00:00:00.000Z")
        try db.query(
          "UPDATE queue SET waiting = ?, withdrawn_dependency = ? WHERE id = ?",
          [.int(s.waiting ? 1 : 0), .int(s.dependencyGone ? 1 : 0), .text(w.id)])
      }
    }
    return try await copy.queue.write(w.id)
  }

  /// The engine's answer: the queue call itself, on a real store.
  static func engine(_ action: WriteAction, _ id: String, store: URL, server: Server) async throws -> Bool {
    let copy = try await WorkingCopy.open(store: store, server: server)
    defer { copy.close() }
    switch action {
    case .release: return try await copy.queue.release(id)
    case .withdraw: return try await copy.queue.withdraw(id)
    case .discard: return try await copy.queue.discard(id)
    case .forget: return try await copy.queue.forgetAnswered(ids: [id]) == 1
    }
  }

  /// The command line's answer: `verdicts <action> ID --json`, run in this process.
  static func commandLine(_ action: WriteAction, _ id: String, store: URL, server: Server) async -> (Bool, String) {
    let env = ["MARFA_API_URL": server.url, "MARFA_API_KEY": server.key ?? ""]
    let r = await runInProcess([action.rawValue, id, "--json"], store: store.path, environment: env)
    switch r.json {
    case .bool(let b)?: return (b, "\(r)")
    case .number(let n)?: return (n.doubleValue > 0, "\(r)")
    default: return (false, "unreadable: \(r)")
    }
  }

  /// The screen's answer: the key pressed on the write selected, or marked.
  static func screen(_ action: WriteAction, _ w: QueuedWrite, marked: Bool) -> Bool {
    var state = UIState(width: 120, height: 40)
    state.confirmWithdraw = false
    state.confirmDiscard = false
    state.focus = w.pane
    _ = state.handle(.loaded(QueuePage(pane: w.pane, offset: 0, writes: [w], total: 1)))
    if marked { _ = state.handle(.key(.char(" "))) }
    let key: Character = ["release": "r", "withdraw": "w", "discard": "x", "forget": "f"][action.rawValue]!
    let effects = state.handle(.key(.char(key)))
    let taken: Bool
    switch effects.first {
    case .release(let ids)?, .forget(let ids)?, .withdraw(let ids)?, .discard(let ids)?: taken = ids == [w.id]
    default: taken = false
    }
    #expect(taken || state.message?.isError == true, "\(action) on \(w.id): refused without saying why")
    return taken
  }

  @Test func theEngineTheCommandLineAndTheScreenGiveOneAnswerForEveryVerdictAndAction() async throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "rules"))
    let url = try instance.start()
    defer { instance.stop() }
    let server = Server(url: url.absoluteString, key: "k1", timeout: 5)
    var allowedCells = 0
    for subject in Self.subjects {
      for action in WriteAction.allCases {
        let engineStore = TempFolder()
        let engineURL = URL(fileURLWithPath: engineStore.store)
        let before = try await Self.make(subject, store: engineURL, server: server)
        await waitForWriterRoleReleased(engineStore.store)
        let rule = before.allows(action).isAllowed
        let engine = try await Self.engine(action, before.id, store: engineURL, server: server)
        let cliStore = TempFolder()
        let cliURL = URL(fileURLWithPath: cliStore.store)
        let cliId = try await Self.make(subject, store: cliURL, server: server).id
        await waitForWriterRoleReleased(cliStore.store)
        let (cli, output) = await Self.commandLine(action, cliId, store: cliURL, server: server)
        let selected = Self.screen(action, before, marked: false)
        let marked = Self.screen(action, before, marked: true)
        let cell = "\(action.rawValue) × \(subject.name)"
        #expect(engine == rule, "\(cell): engine \(engine), rule \(rule)")
        #expect(cli == rule, "\(cell): command line \(cli), rule \(rule): \(output)")
        #expect(selected == rule, "\(cell): screen (selected) \(selected), rule \(rule)")
        #expect(marked == rule, "\(cell): screen (marked) \(marked), rule \(rule)")
        if rule { allowedCells += 1 }
      }
    }
    // release: 6 blocked + dead + refused unsent; withdraw: 4; discard: 4 refused; forget: 3 + 2.
    #expect(allowedCells == 8 + 4 + 4 + 5)
  }
}
