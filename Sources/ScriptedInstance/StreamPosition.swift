/// Where one held event stream is: the last cursor sent and the instance it named.
///
/// Read and written only by the stream's connection thread (under the instance's lock).
final class StreamPosition: @unchecked Sendable {
  var cursor: Int
  var instanceId: String
  let edges: Bool

  init(cursor: Int, instanceId: String, edges: Bool) {
    self.cursor = cursor
    self.instanceId = instanceId
    self.edges = edges
  }
}
