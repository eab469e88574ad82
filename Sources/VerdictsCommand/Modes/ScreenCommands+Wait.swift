import FoundationEssentials
import MarfaQueue

extension ScreenCommands {
  /// `watch --wait`: when no store is at the path yet, says so on stderr and waits (checking four
  /// times a second) until one is there and opens; SIGINT, SIGTERM or SIGHUP end the wait by their
  /// default action (nothing is open yet). Creates and writes nothing.
  static func waitForStore(_ context: CommandContext) async throws -> Bool {
    let path = context.globals.storePath
    func ready() async -> Bool {
      guard FileManager.default.fileExists(atPath: path) else { return false }
      // A file being made may not be a store yet: it is ready once it opens to read.
      guard let copy = try? await WorkingCopy.openReader(store: URL(fileURLWithPath: path)) else { return false }
      copy.close()
      return true
    }
    if await ready() { return true }
    context.output.err("verdicts: no store at \(context.visible(path)) yet; waiting for it (ctrl-c stops)\n")
    // SIGINT, SIGTERM and SIGHUP keep their default action while waiting: nothing is open yet.
    while !Task.isCancelled {
      try await Task.sleep(for: .milliseconds(250))
      if await ready() { return true }
    }
    return false
  }
}
