/// A request on its way (``HTTPClient/start(_:_:headers:body:key:)``).
package struct InFlightRequest: Sendable {
  let transfer: CurlTransfer
  let collector: AnswerCollector
  let driver: CurlDriver

  /// Waits for the answer; throws ``TransportError`` when no whole answer came.
  ///
  /// Cancelling the waiting task cancels the transfer: the driver's thread takes it out and the
  /// answer becomes a transport failure at once.
  package func answer() async throws -> HTTPAnswer {
    let transfer = self.transfer
    let driver = self.driver
    let outcome = await withTaskCancellationHandler {
      (try? await transfer.done.value()) ?? .cancelled
    } onCancel: {
      driver.cancel(transfer)
    }
    let answer = collector.answer
    let began = answer.headCame ? answer.status : nil
    if let cut = answer.cut { throw TransportError.cut(cut, status: began) }
    if let cut = outcome.cut { throw TransportError.cut(cut, status: began) }
    guard outcome.ok else { throw TransportError(message: outcome.message) }
    // libcurl ends a transfer "whole" when the connection closes inside the head.
    guard answer.headCame else {
      throw TransportError(message: "the connection was dropped (it closed before the answer's head was whole)")
    }
    return HTTPAnswer(status: answer.status, headers: answer.headers, body: answer.bytes)
  }
}
