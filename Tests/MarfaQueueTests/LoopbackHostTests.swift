import Testing

@testable import MarfaQueue

/// Loopback by address: the warning about a key in the clear is never skipped for a name that
/// only looks like a loopback address.
@Suite struct LoopbackHostTests {
  @Test func aLoopbackAddressIsLoopbackHoweverItIsWritten() {
    for host in [
      "127.0.0.1", "127.1", "127.255.255.254", "[::1]", "::1", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]",
      "localhost", "LOCALHOST", "localhost.", "api.localhost",
    ] {
      #expect(LoopbackHost.isLoopback(host: host), "\(host)")
    }
  }

  @Test func aNameIsNeverTakenForLoopbackByItsSpelling() {
    for host in [
      "127.attacker.example", "127.0.0.1.attacker.example", "localhost.attacker.example",
      "attacker.example", "10.0.0.1", "0.0.0.0", "[::2]", "[fe80::1%25eth0]", "", "128.0.0.1", "126.255.255.255",
    ] {
      #expect(!LoopbackHost.isLoopback(host: host), "\(host)")
    }
  }

  @Test func theKeyInTheClearIsJudgedByTheHostsAddress() {
    #expect(Server(url: "http://127.attacker.example:1", key: "k").sendsKeyInClear)
    #expect(Server(url: "HTTP://attacker.example", key: "k").sendsKeyInClear)
    #expect(!Server(url: "http://127.0.0.1:1", key: "k").sendsKeyInClear)
    #expect(!Server(url: "http://user@127.0.0.1:1", key: "k").sendsKeyInClear)
    #expect(!Server(url: "https://attacker.example", key: "k").sendsKeyInClear)
    #expect(!Server(url: "http://attacker.example", key: nil).sendsKeyInClear)
    #expect(Server(url: "https://a.example", key: "k", proxy: "http://proxy.example:3128").sendsKeyInClearToProxy)
    #expect(!Server(url: "https://a.example", key: "k", proxy: "https://proxy.example").sendsKeyInClearToProxy)
    #expect(!Server(url: "https://a.example", key: "k", proxy: "http://127.0.0.1:3128").sendsKeyInClearToProxy)
  }

  @Test func aServerIsRefusedBeforeAnythingIsWrittenForABadSchemeOrKey() {
    #expect(Server(url: "HTTP://127.0.0.1:1", key: "k").refusal == nil)
    #expect(Server(url: "HttpS://a.example", key: nil).refusal == nil)
    #expect(Server(url: "ftp://a.example", key: "k").refusal != nil)
    #expect(Server(url: "http://a.example", key: "a\r\nX-Injected: 1").refusal != nil)
    #expect(Server(url: "http://a.example", key: "a\u{7F}").refusal != nil)
  }
}
