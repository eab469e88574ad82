import MarfaWire

#if canImport(Glibc)
  import Glibc
#endif

/// A few megabytes of address space held while the process talks to an instance, and let go
/// when libcurl runs out of memory (a NULL handle): what says so (the error, its words, the
/// line printed) needs memory too, and a process at its limit (`ulimit -v`) had none left, so it
/// crashed printing the runtime's own allocation failure. Never touched: it costs no resident
/// memory, only room under a limit.
enum MemoryReserve {
  /// How much is held: a thread's allocations, an error and its words, a printed line.
  static let bytes = 4 << 20

  private static let held = Mutex<UnsafeMutableRawPointer?>(nil)

  /// Holds the reserve again if it was let go (and memory allows).
  static func hold() {
    held.withLock { block in
      if block == nil { block = malloc(bytes) }
    }
  }

  /// Lets the reserve go; nothing when none is held.
  static func release() {
    held.withLock { block in
      free(block)
      block = nil
    }
  }
}
