extension InstanceState {
  /// `GET /events`: the head (`stream_cursor`), or a replay after `Last-Event-ID` ending in `stream_live`,
  /// held open; `catchup_too_old` or `cursor_ahead` for a cursor the log cannot serve.
  ///
  /// As the contract's instance: a replay names the read view its head certified
  /// (`X-Marfa-Read-View`) beside its cursor, and a head read names neither; anything else is
  /// `400 validation_error`.
  func eventsReply(_ request: HTTPRequest) -> HTTPReply {
    let edges = request.query("edges") == "all"
    var frames: [String]
    var hold = true
    let view = request.header("X-Marfa-Read-View")
    if let last = request.header("Last-Event-ID") {
      guard let cursor = Int(last.trimmingSpaces()), cursor >= 0 else {
        return .response(Self.http(.validation([("Last-Event-ID", "is not a cursor")])))
      }
      guard view == ScriptedInstance.readView else {
        return .response(Self.http(.validation([("X-Marfa-Read-View", "invalid copy replay request")])))
      }
      if cursor > model.headCursor {
        frames = [Self.frame(control("cursor_ahead", cursor: model.headCursor, extra: ["requested": .string(last)]))]
        hold = false
      } else if cursor < model.eventHorizon {
        frames = [
          Self.frame(control("catchup_too_old", cursor: cursor, extra: ["oldest": .string(String(model.eventHorizon))]))
        ]
        hold = false
      } else {
        frames = model.events(after: cursor, edges: edges).map(Self.frame)
        frames.append(Self.frame(control("stream_live", cursor: model.headCursor)))
      }
    } else {
      guard view == nil else {
        return .response(Self.http(.validation([("X-Marfa-Read-View", "invalid copy bootstrap request")])))
      }
      frames = [Self.frame(control("stream_cursor", cursor: model.headCursor))]
    }
    var head = HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")])
    head.headers.append(("X-Marfa-Contract", ScriptedInstance.contract))
    if let view = request.header("X-Marfa-Read-View") { head.headers.append(("X-Marfa-Read-View", view)) }
    let position = StreamPosition(cursor: model.headCursor, instanceId: currentInstanceId, edges: edges)
    return .events(
      EventStream(head: head, frames: frames, hold: hold) { [follow] in follow(position) })
  }

  /// The frames a held stream has not sent yet; a `stream_cursor` frame first when the instance changed.
  func framesSince(_ position: StreamPosition) -> [String] {
    position.place.withLock { place in
      var frames: [String] = []
      if place.instanceId != currentInstanceId || place.cursor > model.headCursor {
        place.instanceId = currentInstanceId
        place.cursor = model.headCursor
        frames.append(Self.frame(control("stream_cursor", cursor: model.headCursor)))
      }
      let events = model.events(after: place.cursor, edges: position.edges)
      frames += events.map(Self.frame)
      place.cursor = max(place.cursor, events.last?.cursor ?? 0)
      return frames
    }
  }

  /// A control frame body: `{event_type, cursor, instance_id, read_view}` plus extras.
  private func control(_ type: String, cursor: Int, extra: [String: ScriptedJSON] = [:]) -> ScriptedJSON {
    var body = extra
    body["event_type"] = .string(type)
    body["cursor"] = .string(String(cursor))
    body["instance_id"] = .string(currentInstanceId)
    body["read_view"] = .string(ScriptedInstance.readView)
    return .object(body)
  }

  /// An item or edge event as an SSE frame with its cursor as the `id:` line.
  private static func frame(_ event: MarfaModel.Event) -> String {
    "id: \(event.cursor)\ndata: \(event.body.text)\n\n"
  }

  /// A control frame (no `id:` line).
  private static func frame(_ body: ScriptedJSON) -> String {
    "data: \(body.text)\n\n"
  }
}
