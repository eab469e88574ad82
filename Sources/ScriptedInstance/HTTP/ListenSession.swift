import Dispatch
import FoundationEssentials
import MarfaWire

/// One period of listening: the listener, a wake pipe every thread of the period watches, and its connections.
final class ListenSession: Sendable {
  private let listener: Int32
  private let wake: (read: Int32, write: Int32)
  private let handler: HTTPServer.Handler
  private let activity: ServerActivity
  private let threads = DispatchGroup()
  /// The open connections, and whether ``end()`` began.
  private let open = Mutex((connections: Set<Int32>(), ending: false))

  init(listener: Int32, handler: @escaping HTTPServer.Handler, activity: ServerActivity) throws {
    self.listener = listener
    self.handler = handler
    self.activity = activity
    do {
      self.wake = try Socket.wakePipe()
      activity.opened(2)
    } catch {
      Socket.close(listener)
      activity.closed()
      throw error
    }
  }

  /// Starts the accepting thread.
  func startAccepting() {
    threads.enter()
    activity.threadStarted()
    DetachedThread.start(name: "scripted-instance-accept") { [self] in
      acceptLoop()
      Socket.close(listener)
      activity.closed()
      activity.threadEnded()
      threads.leave()
    }
  }

  /// Wakes every thread, closes the listener and the connections, and waits for the threads to end.
  /// Ends once: a second call must not write to, or close, descriptors the first closed (their
  /// numbers may already name another file, and a write to a pipe with no reader is SIGPIPE).
  func end() {
    let first = open.withLock { state -> Bool in
      guard !state.ending else { return false }
      state.ending = true
      Socket.signal(wake.write)
      for fd in state.connections { Socket.shutdown(fd) }
      return true
    }
    guard first else { return }
    threads.wait()
    Socket.close(wake.read)
    Socket.close(wake.write)
    activity.closed(2)
  }

  private func acceptLoop() {
    while true {
      switch Socket.wait(listener, wake: wake.read, milliseconds: -1) {
      case .woken: return
      case .timedOut: continue
      case .readable:
        guard let fd = Socket.accept(listener) else {
          DetachedThread.sleep(seconds: 0.01)  // out of descriptors, say: don't spin
          continue
        }
        activity.opened()
        let taken = open.withLock { state in
          if state.ending { return false }
          state.connections.insert(fd)
          threads.enter()
          return true
        }
        guard taken else {
          Socket.close(fd)
          activity.closed()
          return
        }
        activity.threadStarted()
        DetachedThread.start(name: "scripted-instance-connection") { [self] in
          var connection = HTTPConnection(fd: fd, wake: wake.read, handler: handler)
          connection.run()
          open.withLock { _ = $0.connections.remove(fd) }
          Socket.close(fd)
          activity.closed()
          activity.threadEnded()
          threads.leave()
        }
      }
    }
  }
}
