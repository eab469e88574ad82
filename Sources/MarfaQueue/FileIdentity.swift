/// A file's device and inode: the same path may come to name another file.
struct FileIdentity: Sendable, Hashable {
  var device: UInt64
  var inode: UInt64
}
