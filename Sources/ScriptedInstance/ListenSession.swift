import Foundation

/// One period of listening: the listener, a wake pipe every thread of the period watches, and its connections.
final class ListenSession: @unchecked Sendable {
  private let listener: Int32
  private let wake: (read: Int32, write: Int32)
  private let handler: HTTPServer.Handler
  private let threads = DispatchGroup()
  private let lock = NSLock()
  private var connections: Set<Int32> = []
  private var ending = false

  init(listener: Int32, handler: @escaping HTTPServer.Handler) throws {
    self.listener = listener
    self.handler = handler
    do {
      self.wake = try Socket.wakePipe()
    } catch {
      Socket.close(listener)
      throw error
    }
  }

  /// Starts the accepting thread.
  func startAccepting() {
    threads.enter()
    let thread = Thread { [self] in
      acceptLoop()
      Socket.close(listener)
      threads.leave()
    }
    thread.name = "scripted-instance-accept"
    thread.start()
  }

  /// Wakes every thread, closes the listener and the connections, and waits for the threads to end.
  func end() {
    lock.withLock {
      ending = true
      Socket.signal(wake.write)
      for fd in connections { Socket.shutdown(fd) }
    }
    threads.wait()
    Socket.close(wake.read)
    Socket.close(wake.write)
  }

  private func acceptLoop() {
    while true {
      switch Socket.wait(listener, wake: wake.read, milliseconds: -1) {
      case .woken: return
      case .timedOut: continue
      case .readable:
        guard let fd = Socket.accept(listener) else { continue }
        let taken = lock.withLock {
          if ending { return false }
          connections.insert(fd)
          threads.enter()
          return true
        }
        guard taken else {
          Socket.close(fd)
          return
        }
        let thread = Thread { [self] in
          var connection = HTTPConnection(fd: fd, wake: wake.read, handler: handler)
          connection.run()
          lock.withLock { _ = connections.remove(fd) }
          Socket.close(fd)
          threads.leave()
        }
        thread.name = "scripted-instance-connection"
        thread.start()
      }
    }
  }
}
