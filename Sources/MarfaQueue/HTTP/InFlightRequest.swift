/// A request on its way (``HTTPClient/start(_:_:headers:body:key:)``).
package struct InFlightRequest: Sendable {
  let transfer: CurlTransfer
  let collector: ResponseCollector
  let driver: CurlDriver

  /// Waits for the response; throws ``TransportError`` when no whole response came.
  ///
  /// Cancelling the waiting task cancels the transfer: the driver's thread takes it out and the
  /// response becomes a transport failure at once.
  package func response() async throws -> HTTPResponse {
    let transfer = self.transfer
    let driver = self.driver
    let outcome = await withTaskCancellationHandler {
      (try? await transfer.done.value()) ?? .cancelled
    } onCancel: {
      driver.cancel(transfer)
    }
    let gathered = collector.gatheredSoFar
    let began = gathered.headCame ? gathered.status : nil
    if let cut = gathered.cut { throw TransportError.cut(cut, status: began) }
    if let cut = outcome.cut { throw TransportError.cut(cut, status: began) }
    guard outcome.ok else { throw TransportError(message: outcome.message) }
    // libcurl ends a transfer "whole" when the connection closes inside the head.
    guard gathered.headCame else {
      throw TransportError(message: "the connection was dropped (it closed before the answer's head was whole)")
    }
    return HTTPResponse(status: gathered.status, headers: gathered.headers, body: gathered.bytes)
  }
}
