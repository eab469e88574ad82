import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Who besides the user could change a store's files: the sentences said once when a store is
/// opened (on standard error, or the TUI's status line). Nothing is refused for it; a lock file
/// of another owner is (``Store``).
///
/// A file or folder is open to others when its mode lets every user write it (`o+w`; a folder
/// with the sticky bit, like `/tmp`, lets others add names but not replace the store's own), or
/// lets a group write it that is not the user's own group (`g+w`, group ≠ the user's primary
/// group). Another user who can write the folder can swap the store, plant a link where its lock,
/// log or bytes go, or take the lock first.
enum StoreExposure {
  /// The warnings for the store at `real` (its resolved path): its folder, the store file, its
  /// lock file and its blob folder, and a store file with more than one name.
  static func warnings(real: String) -> [String] {
    var out: [String] = []
    let folder = StorePath.folder(of: real).isEmpty ? "." : StorePath.folder(of: real)
    if let mode = openToOthers(folder) {
      out.append(
        "the store's folder \(folder) can be written by other users (\(mode)): they could replace the store or plant links beside it; make it private (chmod 700 \(folder))"
      )
    }
    for (path, what) in [
      (real, "the store file"), (real + ".lock", "the lock beside the store"),
      (real + ".blobs", "the store's blob folder"),
    ] {
      if let mode = openToOthers(path) {
        out.append("\(what) \(path) can be written by other users (\(mode)); make it private (chmod go-w \(path))")
      }
    }
    var st = stat()
    if lstat(real, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_nlink > 1 {
      out.append(
        "the store file \(real) has \(st.st_nlink) names (hard links): the writer role is taken on the file whatever its name, but SQLite keeps the store's log beside the name it was opened by; open it by one name only"
      )
    }
    return out
  }

  /// How the file or folder at `path` (not followed through a link) lets others write it, in
  /// words (`mode 0777, no sticky bit`), nil when it does not or nothing is there.
  static func openToOthers(_ path: String) -> String? {
    var st = stat()
    guard lstat(path, &st) == 0 else { return nil }
    let type = st.st_mode & S_IFMT
    guard type != S_IFLNK else { return nil }
    let mode = st.st_mode & 0o7777
    let octal = "mode 0" + String(mode & 0o777, radix: 8)
    if mode & S_IWOTH != 0 {
      if type == S_IFDIR && mode & S_ISVTX != 0 { return nil }
      return type == S_IFDIR ? "\(octal), no sticky bit" : octal
    }
    if mode & S_IWGRP != 0, st.st_gid != getegid() {
      return "\(octal), group \(groupName(st.st_gid))"
    }
    return nil
  }

  /// A group's name, or its number.
  static func groupName(_ gid: gid_t) -> String {
    var group = Glibc.group()
    var found: UnsafeMutablePointer<Glibc.group>?
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getgrgid_r(gid, &group, &buffer, buffer.count, &found) == 0, found != nil, let name = group.gr_name else {
      return String(gid)
    }
    return String(cString: name)
  }
}
