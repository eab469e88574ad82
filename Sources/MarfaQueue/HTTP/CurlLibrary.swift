import CCurl
import MarfaWire

/// libcurl, opened at the first request rather than linked (`Sources/CCurl/shim.h` says why).
///
/// Once loaded it stays loaded; a load that failed is tried again at the next request, so a
/// moment without file descriptors or memory is not a lasting failure (docs/reliability.md,
/// "Third attack round (B)").
enum CurlLibrary {
  /// Whether libcurl was loaded with every function used.
  private static let loaded = Mutex(false)

  /// Why libcurl cannot be used now, in words a person can act on; nil when it is loaded.
  static var problem: String? {
    if loaded.withLock({ $0 }) { return nil }
    guard let words = ccurl_load_problem().map({ String(cString: $0) }) else {
      loaded.withLock { $0 = true }
      return nil
    }
    return explained(words)
  }

  /// The loader's `words` as a sentence: the package to install only when the library is really
  /// absent; a passing shortage (file descriptors, memory) said as such, to be tried again.
  static func explained(_ words: String) -> String {
    if let shortage = shortage(in: words) {
      return "libcurl could not be loaded for now (\(words)): \(shortage); the next request tries again"
    }
    if words.contains("No such file or directory") || words.contains("cannot open shared object file") {
      return "libcurl could not be loaded (\(words)): install the libcurl4 package "
        + "(libcurl4t64 on Ubuntu 24.04) to talk to an instance"
    }
    return "libcurl could not be loaded (\(words))"
  }

  /// What the loader's words say ran short, in a person's words; nil when nothing did.
  static func shortage(in words: String) -> String? {
    if words.contains("Too many open files") {
      return "this process (or the system) has too many files open"
    }
    let memory = ["Cannot allocate memory", "out of memory", "failed to map segment", "cannot map zero-fill pages"]
    if memory.contains(where: words.contains) { return "this process is out of memory" }
    return nil
  }
}
