import Digest
import Foundation
import ScriptedInstance
import Testing

@testable import MarfaQueue

/// What the store keeps of an answer is bounded: its first part, its size and its hash.
@Suite struct KeptAnswerTests {
  @Test func aSmallAnswerIsKeptWholeAndALargeOneAsItsFirstPartSizeAndHash() {
    #expect(KeptAnswer.text(of: Array(#"{"error":{"code":"x"}}"#.utf8)) == #"{"error":{"code":"x"}}"#)
    #expect(KeptAnswer.text(of: [0xFF, 0xFE]) == "<2 bytes, not UTF-8>")
    // A multi-byte character across the limit is not split.
    let body = Array(String(repeating: "é", count: KeptAnswer.keptBytes).utf8)
    let kept = KeptAnswer.text(of: body)
    #expect(kept.hasSuffix("… [\(body.count) bytes in all, sha256 \(SHA256.hex(body))]"))
    #expect(kept.utf8.count <= KeptAnswer.keptBytes + 120)
    #expect(kept.hasPrefix(String(repeating: "é", count: KeptAnswer.keptBytes / 2)))
  }

  @Test func aLongMessageIsCutSayingItsLength() {
    let long = String(repeating: "m", count: 10_000)
    #expect(KeptAnswer.bounded(long) == String(repeating: "m", count: 8_192) + "… [10000 characters in all]")
    #expect(KeptAnswer.bounded("short") == "short")
  }

  @Test func fiveRefusalsWithMegabyteBodiesLeaveASmallStoreAndBoundedRows() async throws {
    let message = String(repeating: "x", count: 3 << 20)
    let fields: [ScriptedJSON] = (0..<5_000).map { ["field": .string("f\($0)"), "message": "bad"] }
    let answer = ScriptedAnswer.error(
      422, code: "validation_error", message: message, details: ["errors": .array(fields)])
    let rules = (1...5).map { ScriptRule.once(.write("big-\($0)"), answer) }
    let instance = ScriptedInstance(scenario: Scenario(name: "big", rules: rules))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TestStore()
    let copy = try await t.open(server: Server(url: url.absoluteString, key: "k"))
    defer { copy.close() }
    try await copy.fill()
    for i in 1...5 { _ = try await copy.createItem(type: "note", properties: .object([]), id: "big-\(i)") }
    let report = try await copy.queue.drain()
    #expect(report.answered == 5)
    for w in try await copy.queue.all() {
      guard case .refused(let refusal) = w.verdict else {
        Issue.record("\(w.id) is \(String(describing: w.verdict))")
        continue
      }
      #expect((w.answer?.utf8.count ?? 0) < KeptAnswer.keptBytes + 200)
      #expect(w.answer?.contains("bytes in all, sha256 ") == true)
      #expect((refusal.message?.count ?? 0) < KeptAnswer.messageCharacters + 40)
      #expect(refusal.fields.count == KeptAnswer.fieldCount)
    }
    copy.close()
    let size = (try FileManager.default.attributesOfItem(atPath: t.url.path)[.size] as? Int) ?? 0
    let wal = (try? FileManager.default.attributesOfItem(atPath: t.url.path + "-wal")[.size] as? Int) ?? 0
    #expect(size + wal < 4 << 20, "store \(size) B, WAL \(wal) B")
  }
}
