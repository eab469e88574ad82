import MarfaWire

/// A weak reference from the queue back to its copy (the copy owns the queue), set once the
/// copy is made.
final class WeakCopy: Sendable {
  private struct Reference {
    weak var copy: WorkingCopy?
  }

  private let reference = Mutex(Reference())

  /// The copy, while it lives.
  var copy: WorkingCopy? {
    get { reference.withLock { $0.copy } }
    set { reference.withLock { $0.copy = newValue } }
  }
}
