import Digest
import Foundation
import ScriptedInstance
import TestSupport
import Testing

@testable import MarfaQueue

/// Thousands of malformed answers, scripted one per write and drained in batches through the
/// library over loopback: the drain never crashes and classifies each per the contract.
@Suite(.serialized) struct HostileAnswerTests {
  /// Answers in the quick form (`make test`); `SOAK=1` tries five times as many.
  static var total: Int { Soak.on ? 50_000 : 10_000 }
  /// Writes per drain; the last of each batch gets an answer that ends the pass.
  static let batch = 100

  /// Tallies of what was tried, printed at the end (the figures in docs/reliability.md).
  struct Tally {
    var answers = 0
    var drains = 0
    var requests = 0
    var families: [String: Int] = [:]
    var outcomes: [String: Int] = [:]
    var statuses: [Int: Int] = [:]
    var withoutContract = 0
    var bytes = 0
  }

  @Test("ten thousand hostile answers never crash the drain and each is classified per the contract")
  func tenThousandHostileAnswersNeverCrashTheDrainAndEachIsClassifiedPerTheContract() async throws {
    let seed = SeededRandom.testSeed()
    var gen = HostileAnswers(seed: seed)
    let instance = ScriptedInstance(scenario: Scenario(name: "hostile", types: [ItemType("note")]))
    let url = try instance.start()
    defer { instance.stop() }
    // A store in memory-backed /dev/shm when there is one: this is about answers, not fsync.
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let copy = try await WorkingCopy.open(
      store: URL(fileURLWithPath: folder + "/queue.store"),
      server: Server(url: url.absoluteString, key: "k1", timeout: 5))
    defer { copy.close() }
    try await copy.fill()

    var tally = Tally()
    var all: [(HostileCase, QueuedWrite)] = []
    var n = 0
    while n < Self.total {
      let size = min(Self.batch, Self.total - n)
      var cases: [HostileCase] = []
      for i in 0..<size {
        let id = "h-\(n + i)"
        cases.append(i == size - 1 ? gen.terminal(writeId: id) : gen.continuing(writeId: id))
      }
      n += size
      var queued: [String: QueuedWrite] = [:]
      for c in cases {
        queued[c.writeId] = try await copy.createItem(
          type: "note", properties: .object([("title", .string(c.writeId))]), id: c.writeId)
      }
      instance.clearRules()
      instance.addRules(
        cases.map { ScriptRule.once(ScriptMatch(method: "POST", path: "/items", writeId: $0.writeId), $0.answer) })
      let before = instance.requests.count

      var report: DrainReport?
      var thrown: QueueError?
      do {
        report = try await copy.queue.drain()
      } catch let error as QueueError {
        thrown = error
      }
      tally.drains += 1
      tally.requests += instance.requests.count - before

      for c in cases {
        let context =
          "seed \(seed), \(c.writeId): \(c.family), \(c.status), contract \(c.contract), body \(Self.show(c.body))"
        let q = try #require(queued[c.writeId])
        let w = try await copy.queue.write(q.id)
        try check(
          c, w, queued: q, report: report, thrown: thrown, parked: cases.last?.expected == .credentialStop,
          context: context)
        tally.answers += 1
        tally.families[c.family, default: 0] += 1
        tally.outcomes[c.expected.name, default: 0] += 1
        tally.statuses[c.status, default: 0] += 1
        if case .absent = c.contract { tally.withoutContract += 1 }
        tally.bytes += c.body.count
      }
      all += cases.map { ($0, queued[$0.writeId]!) }
    }

    // Every rule answered; a last drain sends what was left unanswered, which the model now takes.
    instance.clearRules()
    let last = try await copy.queue.drain()
    #expect(last.unavailable == nil, "\(last.unavailable ?? "")")
    for (c, q) in all {
      let w = try await copy.queue.write(q.id)
      switch c.expected {
      case .accepted, .merged, .conflicted, .counted, .environmental, .contractMismatch, .redirect, .credentialStop,
        .blocked(.credentialRefused):
        // Answered as scripted, or left unanswered and resent: now taken by the model.
        if case .counted = c.expected { #expect(w.refusals == 1, "\(c.writeId)") }
      case .refused, .blocked:
        #expect(w.verdict != nil && w.verdict != .accepted, "\(c.writeId) was resent after \(c.expected)")
      }
    }
    // No write was applied twice, whatever it met on the way.
    let applied = instance.appliedWrites
    #expect(applied.values.allSatisfy { $0 == 1 }, "a write was applied more than once")
    let unanswered = try await copy.queue.all().filter { $0.verdict == nil }
    #expect(unanswered.isEmpty, "\(unanswered.map(\.id))")

    print(
      """
      hostile answers (seed \(seed)): \(tally.answers) answers in \(tally.drains) drains, \(tally.requests) requests, \
      \(tally.bytes) body bytes, \(tally.withoutContract) without the contract header
      families: \(tally.families.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
      outcomes: \(tally.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
      statuses: \(tally.statuses.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
      """)
  }

  /// Checks one write against what the contract says of its answer.
  func check(
    _ c: HostileCase, _ w: QueuedWrite, queued q: QueuedWrite, report: DrainReport?, thrown: QueueError?, parked: Bool,
    context: String
  ) throws {
    #expect(w.idempotencyKey == q.idempotencyKey, "\(context): the key changed")
    switch c.expected {
    case .accepted:
      #expect(w.verdict == .accepted, "\(context): \(String(describing: w.verdict))")
    case .merged(let fields):
      #expect(w.verdict == .merged(fields: fields), "\(context): \(String(describing: w.verdict))")
    case .conflicted(let sibling, let fields):
      #expect(
        w.verdict == .conflicted(siblingId: sibling, fields: fields), "\(context): \(String(describing: w.verdict))")
    case .refused(let reason):
      guard case .refused(let refusal) = w.verdict else {
        Issue.record("\(context): wanted refused \(reason.debugDescription), got \(String(describing: w.verdict))")
        return
      }
      #expect(refusal.reason == reason, "\(context)")
      #expect(w.refusals == 0, "\(context)")
      // The whole envelope is kept (refused-envelope-kept), or said to be bytes when it is not text;
      // past KeptAnswer.keptBytes, its first part, its size and its hash.
      if c.body.count <= KeptAnswer.keptBytes {
        let text = String(validating: c.body, as: UTF8.self) ?? "<\(c.body.count) bytes, not UTF-8>"
        #expect(w.answer == text, "\(context): the answer kept is not the body")
      } else {
        let answer = w.answer ?? ""
        #expect(answer.hasSuffix("[\(c.body.count) bytes in all, sha256 \(SHA256.hex(c.body))]"), "\(context)")
        #expect(answer.utf8.count < KeptAnswer.keptBytes + 200, "\(context): \(answer.utf8.count) bytes kept")
        #expect(
          c.body.starts(with: answer.utf8.prefix(KeptAnswer.keptBytes - 3)), "\(context): not the answer's first part")
      }
    case .blocked(let reason):
      #expect(w.verdict?.blockedReason == reason, "\(context): \(String(describing: w.verdict))")
      #expect(w.refusals == 0, "\(context)")
    case .counted:
      // A 401 naming the contract at the batch's end parks every write still unanswered.
      if parked {
        #expect(w.verdict?.blockedReason == .credentialRefused, "\(context): \(String(describing: w.verdict))")
      } else {
        #expect(w.verdict == nil, "\(context): \(String(describing: w.verdict))")
      }
      #expect(w.refusals == 1, "\(context): refusals \(w.refusals)")
    case .environmental(let status):
      #expect(w.verdict == nil, "\(context)")
      #expect(w.refusals == 0, "\(context)")
      #expect(w.lastFailure?.status == status, "\(context): \(String(describing: w.lastFailure))")
      #expect((w.lastFailure?.text?.unicodeScalars.count ?? 0) <= 200, "\(context): failure text not cut")
      #expect(w.environmentalStreak == (status == 429 ? 0 : 1), "\(context): streak \(w.environmentalStreak)")
      #expect(report?.unavailable != nil, "\(context): the pass did not say it was unavailable")
      #expect(report?.retryAfterSeconds == c.retryAfterSeconds.map { min($0, DrainReport.retryAfterCap) }, "\(context)")
    case .contractMismatch:
      guard case .contractMismatch = thrown else {
        Issue.record("\(context): wanted contract_mismatch, got \(String(describing: thrown))")
        return
      }
      #expect(w.verdict == nil && w.refusals == 0, "\(context)")
    case .redirect:
      guard case .redirected(let status, _, _) = thrown else {
        Issue.record("\(context): wanted redirect, got \(String(describing: thrown))")
        return
      }
      #expect(status == c.status, "\(context)")
      #expect(w.verdict == nil && w.refusals == 0, "\(context)")
    case .credentialStop:
      #expect(report?.stopped != nil, "\(context)")
      #expect(w.verdict?.blockedReason == .credentialRefused, "\(context)")
    }
  }

  static func folder() -> String {
    let base =
      FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : FileManager.default.temporaryDirectory.path
    let path = base + "/verdicts-hostile-\(UUID().uuidString.lowercased())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// The start of a body, printable, for failure messages.
  static func show(_ body: [UInt8]) -> String {
    let head = body.prefix(120).map { b -> String in
      (0x20..<0x7F).contains(b) ? String(UnicodeScalar(b)) : String(format: "\\x%02x", b)
    }.joined()
    return body.count > 120 ? "\(head)… (\(body.count) bytes)" : head
  }
}
