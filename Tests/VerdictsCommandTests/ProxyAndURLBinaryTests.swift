import Foundation
import MarfaQueue
import ScriptedInstance
import TestSupport
import Testing

/// Through the built binary: the key goes only to the hosts the person named. A proxy from the
/// environment is never used (and said so), one named with `--proxy` is, with a warning when the
/// key would reach it in the clear; loopback is judged by address, not by spelling; and an input
/// refused leaves the store as it was.
@Suite(.serialized) struct ProxyAndURLBinaryTests {
  /// A proxy on loopback that answers every request 502 and records it.
  static func proxy() throws -> RawServer {
    try RawServer { peer in
      guard let head = peer.readHead() else { return }
      peer.skipBody(of: head)
      _ = peer.answer(502, body: "proxy")
    }
  }

  static let proxyVariables = ["http_proxy", "https_proxy", "HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "all_proxy"]

  @Test func aProxyNamedInTheEnvironmentIsNeverSentAnythingAndIsNamedOnce() async throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t"))
    instance.acceptedKeys = ["secretkey123"]
    let url = try instance.start()
    defer { instance.stop() }
    let proxy = try Self.proxy()
    defer { proxy.stop() }
    let t = TempFolder()
    var env = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "secretkey123"]
    for name in Self.proxyVariables { env[name] = proxy.url.absoluteString }
    let fill = try await Binary.runOff(["fill"], store: t.store, home: t.path, environment: env)
    #expect(fill.code == 0, "\(fill)")
    _ = try await Binary.runOff(
      ["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    let drain = try await Binary.runOff(["--json", "drain"], store: t.store, home: t.path, environment: env)
    #expect(drain.code == 0, "\(drain)")
    #expect(drain.json?["answered"] == .number(1), "\(drain)")
    let catchUp = try await Binary.runOff(["catch-up"], store: t.store, home: t.path, environment: env)
    #expect(catchUp.code == 0, "\(catchUp)")
    #expect(proxy.connections == 0, "the proxy was sent \(proxy.received)")
    // Said once a run, naming the variables, never their values.
    #expect(fill.stderr.components(separatedBy: "is not used").count == 2, "\(fill)")
    #expect(fill.stderr.contains("http_proxy") && fill.stderr.contains("ALL_PROXY"), "\(fill)")
    #expect(!fill.stderr.contains(String(proxy.port)), "\(fill)")
    let lines = drain.stderr.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
    #expect(lines.contains { $0["warning"]?["code"] == .string("proxy_ignored") }, "\(drain)")
  }

  @Test func aProxyNamedWithTheOptionCarriesEveryRequest() async throws {
    let proxy = try Self.proxy()
    defer { proxy.stop() }
    let t = TempFolder()
    let r = try await Binary.runOff(
      ["--url", "http://127.0.0.1:9/", "--proxy", proxy.url.absoluteString, "fill"], store: t.store, home: t.path,
      environment: ["MARFA_API_KEY": "secretkey123"])
    #expect(r.code != 0, "the proxy answers 502: \(r)")
    let first = try #require(proxy.received.first, "the proxy was sent nothing: \(r)")
    #expect(first.path == "http://127.0.0.1:9/", "\(first)")
    #expect(!r.stderr.contains("in the clear to the proxy"), "a loopback proxy keeps the key on the machine: \(r)")
  }

  @Test func aPlainHTTPProxyOnAnotherMachineIsNamedInAWarning() async throws {
    let t = TempFolder()
    for proxy in ["http://127.attacker.example:1", "HTTP://proxy.example:3128"] {
      let r = try await Binary.runOff(
        ["--url", "https://127.0.0.1:9/", "--proxy", proxy, "fill"], store: t.store, home: t.path,
        environment: ["MARFA_API_KEY": "secretkey123"], timeout: 30)
      #expect(r.stderr.contains("the key goes in the clear to the proxy \(proxy.lowercased())"), "\(proxy): \(r)")
    }
    for proxy in ["https://proxy.example:3128", "socks5h://127.0.0.1:1", "http://[::1]:1"] {
      let r = try await Binary.runOff(
        ["--url", "https://127.0.0.1:9/", "--proxy", proxy, "fill"], store: t.store, home: t.path,
        environment: ["MARFA_API_KEY": "secretkey123"], timeout: 30)
      #expect(!r.stderr.contains("to the proxy"), "\(proxy): \(r)")
    }
  }

  @Test func loopbackIsJudgedByTheAddressNotByHowTheHostIsSpelled() async throws {
    let t = TempFolder()
    func warned(_ url: String) async throws -> Bool {
      let r = try await Binary.runOff(
        ["--url", url, "fill"], store: t.store, home: t.path, environment: ["MARFA_API_KEY": "secretkey123"])
      return r.stderr.contains("the key goes over plain http")
    }
    for url in ["http://127.attacker.example:1", "http://127.0.0.1.attacker.example:1", "http://attacker.example:1"] {
      #expect(try await warned(url), "\(url) was taken for loopback")
    }
    for url in [
      "http://127.0.0.1:1", "http://127.1.2.3:1", "http://[::1]:1", "http://localhost:1", "HTTP://LocalHost:1",
    ] {
      #expect(try await !warned(url), "\(url) was not taken for loopback")
    }
  }

  @Test func anUppercaseSchemeIsTheSameSchemeAndTheFillGoesThrough() async throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t"))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    let upper = url.absoluteString.replacingOccurrences(of: "http://", with: "HTTP://")
    let fill = try await Binary.runOff(
      ["--url", upper, "fill"], store: t.store, home: t.path, environment: ["MARFA_API_KEY": "k"])
    #expect(fill.code == 0, "\(fill)")
    let status = try await Binary.runOff(["--json", "status"], store: t.store, home: t.path)
    #expect(status.json?["fill"] == .string("complete"), "\(status)")
    #expect(status.json?["origin"] == .string(url.absoluteString), "the scheme is kept lower case: \(status)")
  }

  @Test func aRefusedURLKeyOrProxyLeavesTheStoreAsItWas() async throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t"))
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    let good = ["MARFA_API_URL": url.absoluteString, "MARFA_API_KEY": "k"]
    #expect(try await Binary.runOff(["fill"], store: t.store, home: t.path, environment: good).code == 0)
    _ = try await Binary.runOff(
      ["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    await waitForWriterRoleReleased(t.store)
    let before = t.storeBytes()
    let crInside = t.file("cr-key")
    try Data("sec\rret\n".utf8).write(to: URL(fileURLWithPath: crInside))
    let refused: [(String, [String], [String: String])] = [
      ("a key holding a line break", [], ["MARFA_API_KEY": "sec\nret"]),
      ("a key holding an escape", [], ["MARFA_API_KEY": "sec\u{1B}ret"]),
      ("a key file with a CR inside its line", ["--key-file", crInside], [:]),
      ("a URL that is not http", ["--url", "ftp://127.0.0.1:1"], [:]),
      ("a proxy that is not a proxy URL", ["--proxy", "file:///etc/passwd"], [:]),
      ("a proxy holding a password", ["--proxy", "http://u:PW@127.0.0.1:1"], [:]),
    ]
    for (what, options, env) in refused {
      for command in [["fill"], ["drain"], ["catch-up"]] {
        let r = try await Binary.runOff(
          options + command, store: t.store, home: t.path, environment: good.merging(env) { _, new in new })
        #expect(r.code == 2, "\(what), \(command): \(r)")
        #expect(!r.stderr.contains("PW"), "\(what): \(r)")
        #expect(t.storeBytes() == before, "\(what), \(command): the store changed")
      }
    }
    let status = try await Binary.runOff(["--json", "status"], store: t.store, home: t.path)
    #expect(status.json?["fill"] == .string("complete"), "\(status)")
  }

  @Test func aKeyFileSavedWithCRLFLineEndsIsReadAsItsFirstLine() async throws {
    let instance = ScriptedInstance(scenario: Scenario(name: "t"))
    instance.acceptedKeys = ["good-key"]
    let url = try instance.start()
    defer { instance.stop() }
    let t = TempFolder()
    for (name, text) in [("one", "good-key\r\n"), ("two", "good-key\r\nthe key for the test instance\r\n")] {
      let file = t.file(name)
      try Data(text.utf8).write(to: URL(fileURLWithPath: file))
      let r = try await Binary.runOff(
        ["--url", url.absoluteString, "--key-file", file, "fill"], store: t.store, home: t.path)
      #expect(r.code == 0, "\(name): \(r)")
      #expect(!r.stderr.contains("line break"), "\(name): \(r)")
    }
  }
}
