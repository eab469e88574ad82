import Testing

@testable import MarfaQueue

/// A response's headers are found by name in any case, and the contract header is read the same
/// whether the answer names the contract once, repeats it or spaces it: the reads made on every
/// answer take a shorter path for the usual form, and these hold the two paths to one result.
@Suite struct HTTPResponseHeaderTests {
  /// A response as the client keeps it: header names lowercased.
  func response(_ headers: [String: String]) -> HTTPResponse {
    HTTPResponse(status: 201, headers: headers, body: [])
  }

  @Test func aHeaderIsFoundByItsNameInAnyCase() {
    let r = response(["x-marfa-contract": "2", "retry-after": "7"])
    #expect(r.header("X-Marfa-Contract") == "2")
    #expect(r.header("x-marfa-contract") == "2")
    #expect(r.header("X-MARFA-CONTRACT") == "2")
    #expect(r.header("Retry-After") == "7")
    #expect(r.header("retry-after") == "7")
    #expect(r.header("Location") == nil)
    #expect(r.header("location") == nil)
  }

  @Test(arguments: [
    ("2", true), ("2, 2", true), (" 2 ", true), ("2,2", true), ("2, 3", false), ("3", false), ("", false),
    ("20", false), ("2;q=1", false),
  ])
  func theContractHeaderNamesOursOnlyWhenEveryPartIsOurs(_ value: String, _ ours: Bool) {
    let r = response(["x-marfa-contract": value])
    #expect(r.namesAContract)
    #expect(r.namesOurContract == ours)
  }

  @Test func noContractHeaderNamesNoContract() {
    let r = response(["content-type": "application/json"])
    #expect(!r.namesAContract)
    #expect(!r.namesOurContract)
  }
}
