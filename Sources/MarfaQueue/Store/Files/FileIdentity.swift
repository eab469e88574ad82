/// A file's device and inode: the same path may come to name another file.
package struct FileIdentity: Sendable, Hashable {
  package var device: UInt64
  package var inode: UInt64

  package init(device: UInt64, inode: UInt64) {
    self.device = device
    self.inode = inode
  }
}
