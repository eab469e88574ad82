/// What is at a working copy's store path now, against the file it opened.
public enum StoreFileState: String, Sendable, Codable, Hashable {
  /// The file it opened is still there.
  case same
  /// Nothing is at the path: the file was deleted or moved away.
  case removed
  /// Another file is at the path (another inode): deleted and made again, or moved over.
  case replaced
}
