/// Ids and keys shortened for lists and hints.
enum ShortID {
  /// An id as a list shows it: whole up to 10 characters, else `…` and its last 8 (UUIDv7s
  /// share their leading time bits, so the tail tells them apart).
  static func of(_ id: String, ellipsis: String = "…") -> String {
    id.count <= 10 ? id : ellipsis + String(id.suffix(8))
  }

  /// An instance id shortened so two instances can be told apart: whole up to 16 characters,
  /// else its first 8, `…` and its last 4 (UUIDv7 instance ids differ at the start, scripted
  /// ones such as `00000000-…` and `99999999-…` only there).
  static func instance(_ id: String, ellipsis: String = "…") -> String {
    id.count <= 16 ? id : String(id.prefix(8)) + ellipsis + String(id.suffix(4))
  }

  /// The columns a short id takes at most.
  static let width = 10

  /// A key shortened so it can be told apart but not used: its first 8 characters and `…`.
  static func key(_ key: String, ellipsis: String = "…") -> String {
    key.count <= 8 ? key : String(key.prefix(8)) + ellipsis
  }
}
