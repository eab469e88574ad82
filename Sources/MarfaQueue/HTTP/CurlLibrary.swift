import CCurl

/// libcurl, opened at the first request rather than linked (`Sources/CCurl/shim.h` says why).
enum CurlLibrary {
  /// Why libcurl cannot be used, in words a person can act on; nil when it is loaded.
  static let problem: String? = ccurl_load_problem().map {
    "libcurl could not be loaded (\(String(cString: $0))): install the libcurl4 package "
      + "(libcurl4t64 on Ubuntu 24.04) to talk to an instance"
  }
}
