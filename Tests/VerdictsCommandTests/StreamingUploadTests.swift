import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `blobs put` hashes and copies its file a chunk at a time: a big file in constant memory.
@Suite(.serialized) struct StreamingUploadTests {
  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs /usr/bin/time for the peak memory"),
    .disabled(if: SanitizerRun.active, "a memory bound: a sanitizer's shadow memory adds tens of MB"))
  func blobsPutOfA16MBFilePeaksUnder44MBAndKeepsTheSameBytesUnderTheirHash() async throws {
    let t = TempFolder()
    let file = t.file("big.bin")
    // 16 MB of a repeating pattern (not sparse, not all zeros). Read whole, the file alone took
    // three copies (48 MB) over the process's own ~30 MB; streamed, the peak does not grow with it.
    let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var block = [UInt8](repeating: 0, count: 1 << 20)
    for i in 0..<block.count { block[i] = UInt8(truncatingIfNeeded: i &* 31 &+ 7) }
    for _ in 0..<16 { _ = block.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) } }
    close(fd)
    let arguments = ["-f", "peak-kb %M", try Binary.require(), "--json", "blobs", "put", file]
    let environment = Binary.environment(store: t.store, home: t.path, [:])
    let (status, o, e) = try await offPool { () -> (Int32, Data, String) in
      let run = try ChildProcess.run("/usr/bin/time", arguments, environment: environment)
      return (run.status, run.stdout, run.errors)
    }
    #expect(status == 0, "\(e)")
    let peak = e.split(separator: "\n").first { $0.hasPrefix("peak-kb ") }.flatMap { Int($0.dropFirst(8)) } ?? Int.max
    print("blobs put of 16 MB: peak \(peak / 1024) MB (whole process)")
    #expect(peak < 44 * 1024, "peak \(peak) KB")
    let json = JSONValue.parse(String(decoding: o, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    let name = try #require(json?["blob"]?.stringValue, "\(String(decoding: o, as: UTF8.self))")
    #expect(name.hasPrefix("sha256:"))
    #expect(json?["body"]?["hash"]?.stringValue == name)
    let copied = t.store + ".blobs/" + name.dropFirst("sha256:".count)
    #expect(FileManager.default.contents(atPath: copied) == FileManager.default.contents(atPath: file))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: t.store + ".blobs").count == 1, "a partial copy was left")

    // The drain sends the upload from its file as it reads it: its peak does not grow with it.
    let instance = ScriptedInstance(scenario: Scenario(name: "t", rules: []))
    let url = try instance.start()
    defer { instance.stop() }
    let env = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k1"]
    #expect(try Binary.run(["fill"], store: t.store, home: t.path, environment: env).code == 0)
    let drainArguments = ["-f", "peak-kb %M", try Binary.require(), "--json", "drain"]
    let drainEnvironment = Binary.environment(store: t.store, home: t.path, env)
    let (dstatus, dreport, de) = try await offPool { () -> (Int32, Data, String) in
      let run = try ChildProcess.run("/usr/bin/time", drainArguments, environment: drainEnvironment)
      return (run.status, run.stdout, run.errors)
    }
    #expect(dstatus == 0, "\(de)")
    #expect(JSONValue.parse(String(decoding: dreport, as: UTF8.self))?["answered"] == .int(1), "\(de)")
    let dpeak = de.split(separator: "\n").first { $0.hasPrefix("peak-kb ") }.flatMap { Int($0.dropFirst(8)) } ?? Int.max
    print("drain of a 16 MB upload: peak \(dpeak / 1024) MB (whole process)")
    #expect(dpeak < 44 * 1024, "peak \(dpeak) KB")
    let sent = try #require(instance.requests.first { $0.method == "POST" && $0.path == "/blobs" })
    #expect(sent.body.count == 16 << 20 && sent.body == Array(FileManager.default.contents(atPath: file) ?? Data()))
  }
}
