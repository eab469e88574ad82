import MarfaWire

/// Where one held event stream is: the last cursor sent and the instance it named.
///
/// Read and written by the stream's connection thread, under the instance's lock.
final class StreamPosition: Sendable {
  /// The last cursor sent, and the instance it belongs to.
  struct Place {
    var cursor: Int
    var instanceId: String
  }

  let place: Mutex<Place>
  let edges: Bool

  init(cursor: Int, instanceId: String, edges: Bool) {
    self.place = Mutex(Place(cursor: cursor, instanceId: instanceId))
    self.edges = edges
  }
}
