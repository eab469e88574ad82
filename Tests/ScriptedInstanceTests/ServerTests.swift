import Digest
import Foundation
import Testing

@testable import ScriptedInstance

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct ServerTests {
  /// A session of the test's own: `URLSession.shared` pools connections across the suite's
  /// parallel tests, whose instances stop and whose ports the system hands out again.
  static func session() -> URLSession { URLSession(configuration: .ephemeral) }

  @Test func rootNamesTheInstanceAndContract() throws {
    let h = try Harness()
    let r = try h.send("GET", "/")
    #expect(r.status == 200)
    #expect(r.header("X-Marfa-Contract") == "2")
    #expect(r.json["instance_id"].string == "00000000-0000-7000-8000-000000000000")
    #expect(r.json["contract"].int == 2)
    #expect(r.json["features"].array == [])
    #expect(r.json["name"].string != nil && r.json["version"].string != nil)
  }

  @Test func keepAliveServesTwoRequestsOnOneConnection() throws {
    let h = try Harness()
    let c = try RawConnection(port: h.port)
    c.request("POST", "/items", headers: ["Content-Type": "application/json"], body: #"{"id":"a","type":"note"}"#)
    let first = try c.readResponse()
    c.request("GET", "/items/a?include=metadata")
    let second = try c.readResponse()
    #expect(first.status == 201)
    #expect(first.header("Connection") == "keep-alive")
    #expect(second.status == 200)
    #expect(second.json["item"]["id"].string == "a")
  }

  @Test func connectionCloseRequestEndsTheConnectionAfterTheAnswer() throws {
    let h = try Harness()
    let c = try RawConnection(port: h.port)
    c.request("GET", "/", headers: ["Connection": "close"])
    #expect(try c.readResponse().header("Connection") == "close")
    #expect(c.closedByPeer(timeout: 2))
  }

  @Test func anHTTP10RequestIsAnsweredAndTheConnectionClosed() throws {
    let h = try Harness()
    let c = try RawConnection(port: h.port)
    c.send("GET / HTTP/1.0\r\n\r\n")
    #expect(try c.readResponse().header("Connection") == "close")
    #expect(c.closedByPeer(timeout: 2))
  }

  @Test func chunkedRequestBodyIsReadWhole() throws {
    let h = try Harness()
    let c = try RawConnection(port: h.port)
    let body = #"{"id":"chunky","type":"note","properties":{"title":"in two chunks"}}"#
    let cut = body.index(body.startIndex, offsetBy: 10)
    let (a, b) = (String(body[..<cut]), String(body[cut...]))
    c.send("POST /items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n")
    c.send(
      String(a.utf8.count, radix: 16) + ";ext=1\r\n" + a + "\r\n" + String(b.utf8.count, radix: 16) + "\r\n" + b
        + "\r\n0\r\n\r\n")
    let r = try c.readResponse()
    #expect(r.status == 201)
    #expect(r.json["item"]["properties"]["title"].string == "in two chunks")
    #expect(h.instance.requests.last?.bodyText == body)
  }

  @Test func expectContinueIsAnsweredBeforeTheBodyIsSent() throws {
    let h = try Harness()
    let c = try RawConnection(port: h.port)
    let body = #"{"id":"e","type":"note"}"#
    c.send("POST /items HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
    #expect(try c.readResponse().status == 100)
    c.send(body)
    #expect(try c.readResponse().status == 201)
  }

  @Test func oversizedBodyIsAnswered413AndTheConnectionClosed() throws {
    let h = try Harness()
    let c = try RawConnection(port: h.port)
    c.send("POST /blobs HTTP/1.1\r\nHost: x\r\nContent-Length: \(HTTPServer.maxBody + 1)\r\n\r\n")
    let r = try c.readResponse()
    #expect(r.status == 413)
    #expect(r.json["error"]["code"].string == "request_too_large")
    #expect(c.closedByPeer(timeout: 2))
  }

  @Test func aMalformedRequestIsAnswered400AndTheServerGoesOn() throws {
    let h = try Harness()
    let c = try RawConnection(port: h.port)
    c.send("garbage\r\nno colon here\r\n\r\n")
    #expect(try c.readResponse().status == 400)
    let notJSON = try h.send("POST", "/items", json: "{not json")
    #expect(notJSON.status == 400)
    #expect(notJSON.json["error"]["code"].string == "validation_error")
    #expect(try h.send("GET", "/").status == 200)
  }

  @Test func concurrentClientsEachHaveTheirWriteAppliedOnce() async throws {
    let h = try Harness()
    let port = h.port
    try await withThrowingTaskGroup(of: Void.self) { group in
      for client in 0..<8 {
        group.addTask {
          let c = try RawConnection(port: port)
          for i in 0..<25 {
            let body = #"{"id":"c\#(client)-\#(i)","type":"note"}"#
            for _ in 0..<2 {
              c.request("POST", "/items", headers: ["Idempotency-Key": "c\(client)-\(i)"], body: body)
              _ = try c.readResponse()
            }
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(h.instance.itemIds.count == 200)
    #expect(h.instance.appliedWrites.count == 200)
    #expect(h.instance.appliedWrites.values.allSatisfy { $0 == 1 })
    #expect(h.instance.requests.filter(\.replayed).count == 200)
  }

  @Test func unknownRouteIsAnswered501NotScriptedAndRecorded() throws {
    let h = try Harness()
    let r = try h.send("GET", "/folders/x")
    #expect(r.status == 501)
    #expect(r.json["error"]["code"].string == "not_scripted")
    #expect(r.header("X-Error-Code") == "not_scripted")
    #expect(h.instance.unscriptedRequests.map(\.path) == ["/folders/x"])
  }

  @Test func startAndStopManyTimesLeavesNoThreadOrDescriptorBehind() throws {
    for _ in 0..<150 {
      let instance = ScriptedInstance()
      let url = try instance.start()
      let c = try RawConnection(port: UInt16(url.port!))
      c.request("GET", "/")
      #expect(try c.readResponse().status == 200)
      instance.stop()
      #expect(instance.activity.threads == 0)
      #expect(instance.activity.descriptors == 0)
    }
  }

  @Test func stopEndsHeldStreamsAndStalledRequestsPromptly() throws {
    let instance = ScriptedInstance()
    instance.addRule(.always(.route("POST", "/items"), .stall))
    let port = UInt16(try instance.start().port!)
    let stream = try RawConnection(port: port)
    stream.request("GET", "/events?edges=all&copy=1")
    _ = try stream.readUntil("stream_cursor")
    let stalled = try RawConnection(port: port)
    stalled.request("POST", "/items", body: "{}")
    // A fixed pause: the server does not say when it has taken the request in.
    Thread.sleep(forTimeInterval: 0.05)
    let began = Date()
    instance.stop()
    #expect(Date().timeIntervalSince(began) < 1)
    #expect(stream.closedByPeer(timeout: 1))
    #expect(stalled.closedByPeer(timeout: 1))
    #expect(instance.activity == (0, 0))
  }

  @Test func offlineRefusesConnectionsAndOnlineReopensTheSamePort() throws {
    let h = try Harness()
    let idle = try RawConnection(port: h.port)
    h.instance.offline()
    #expect(throws: RawError.refused) { try RawConnection(port: h.port) }
    #expect(idle.closedByPeer(timeout: 1))
    try h.instance.online()
    #expect(try h.send("GET", "/").status == 200)
    #expect(h.instance.url?.port == Int(h.port))
  }

  @Test("a drop reads the request whole then closes the kept-alive connection without a byte of answer")
  func aDropReadsTheRequestWholeThenClosesTheKeptAliveConnectionWithoutAByteOfAnswer() throws {
    let h = try Harness(rules: [.always(.route("POST", "/items"), .drop)])
    let c = try RawConnection(port: h.port)
    c.request("GET", "/")
    #expect(try c.readResponse().status == 200)
    c.request("POST", "/items", headers: ["Content-Type": "application/json"], body: #"{"type":"note"}"#)
    // Any answer's first byte is the "H" of its status line: none comes before the close.
    #expect(throws: RawError.closed) { try c.readUntil("H") }
    #expect(h.instance.requests.map(\.method) == ["GET", "POST"])
    #expect(h.instance.requests.last?.body == Array(#"{"type":"note"}"#.utf8), "read whole")
    #expect(h.instance.itemIds.isEmpty)
  }

  @Test func urlSessionTimesOutOnAStalledRequest() async throws {
    let h = try Harness(rules: [.always(.route("GET", "/"), .stall)])
    var request = URLRequest(url: h.url)
    request.timeoutInterval = 1  // FoundationNetworking treats a timeout under a second as none at all
    let began = Date()
    let error = await #expect(throws: URLError.self) { _ = try await Self.session().data(for: request) }
    #expect(error?.code == .timedOut)
    #expect(Date().timeIntervalSince(began) < 20)  // loose: two cores shared by parallel tests
  }

  @Test func urlSessionUploadsAMegabyteBlobNamedByItsHash() async throws {
    let h = try Harness()
    let bytes = [UInt8](repeating: 7, count: 1 << 20)
    var request = URLRequest(url: h.url.appendingPathComponent("blobs"))
    request.httpMethod = "POST"
    request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
    let (data, response) = try await Self.session().upload(for: request, from: Data(bytes))
    #expect((response as? HTTPURLResponse)?.statusCode == 201)
    let answer = ScriptedJSONBox(bytes: Array(data))
    #expect(answer["size_bytes"].int == bytes.count)
    #expect(answer["hash"].string == "sha256:" + SHA256.hex(bytes))
  }

  @Test func urlSessionWritesAndReadsJSON() async throws {
    let h = try Harness()
    var request = URLRequest(url: h.url.appendingPathComponent("items"))
    request.httpMethod = "POST"
    request.httpBody = Data(#"{"id":"via-urlsession","type":"note","properties":{"title":"hi"}}"#.utf8)
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue("k-1", forHTTPHeaderField: "Idempotency-Key")
    let (data, response) = try await Self.session().data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    #expect(http.statusCode == 201)
    #expect(http.value(forHTTPHeaderField: "X-Marfa-Contract") == "2")
    #expect(ScriptedJSONBox(bytes: Array(data))["item"]["id"].string == "via-urlsession")
    #expect(h.instance.appliedCount(key: "k-1") == 1)
  }
}
