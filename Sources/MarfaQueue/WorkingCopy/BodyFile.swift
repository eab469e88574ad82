/// A request body sent from a file as it is read, never held whole in memory: a blob's bytes.
///
/// The size is taken when the request is made; a file that no longer holds that many bytes when
/// it is sent stops the transfer (a request is never sent with fewer bytes than its
/// `Content-Length` says), and a resend on a fresh connection reads it again from the start.
package struct BodyFile: Sendable, Hashable {
  /// The file's path.
  package var path: String
  /// The bytes sent: the `Content-Length`.
  package var size: Int
  /// The file checked against its hash (device and inode): the one opened to send, or nothing
  /// is sent. Nil sends whatever regular file `path` names.
  package var identity: FileIdentity?

  package init(path: String, size: Int, identity: FileIdentity? = nil) {
    self.path = path
    self.size = size
    self.identity = identity
  }
}
