import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real OpenSSH server on a loopback port, with keys made for the run, and an ssh config
/// naming each of `hosts` as a device behind it: what a test reaches a "remote" store through.
/// Every host is this machine, logged into as this user.
public final class SSHLab: Sendable {
  /// The lab's folder: keys, configs, the server's log.
  public let folder: TempFolder
  /// The port the server listens on.
  public let port: UInt16
  /// The host aliases the ssh config names.
  public let hosts: [String]
  private let server = ChildProcess()

  /// Why a lab could not start.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Starts sshd (from openssh-server: `make deps` installs it) on a free loopback port.
  /// `forcedCommand` pins the user's key to that command (an `authorized_keys` `command=`).
  public init(hosts: [String] = ["device"], forcedCommand: String? = nil) throws {
    folder = TempFolder()
    self.hosts = hosts
    let dir = folder.path
    for key in ["host_key", "user_key"] {
      let made = try ChildProcess.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", "\(dir)/\(key)"])
      guard made.status == 0 else { throw Failure(description: "ssh-keygen: \(made.errors)") }
    }
    let publicKey = try String(contentsOfFile: "\(dir)/user_key.pub", encoding: .utf8)
    let options = forcedCommand.map { "command=\"\($0)\",restrict " } ?? ""
    try (options + publicKey).write(toFile: "\(dir)/authorized_keys", atomically: true, encoding: .utf8)
    chmod("\(dir)/authorized_keys", 0o600)
    // sshd run by root needs its privilege-separation folder.
    if getuid() == 0 { mkdir("/run/sshd", 0o755) }
    let listener = try Loopback.listen()
    port = listener.port
    close(listener.fd)
    let user = String(cString: getpwuid(getuid())!.pointee.pw_name)
    let sshd = """
      Port \(port)
      ListenAddress 127.0.0.1
      HostKey \(dir)/host_key
      AuthorizedKeysFile \(dir)/authorized_keys
      PidFile \(dir)/sshd.pid
      UsePAM no
      StrictModes no
      PermitRootLogin prohibit-password
      PasswordAuthentication no
      KbdInteractiveAuthentication no
      AcceptEnv MARFA_* VERDICTS_*
      MaxStartups 200
      LogLevel ERROR

      """
    try sshd.write(toFile: "\(dir)/sshd_config", atomically: true, encoding: .utf8)
    let client = """
      Host \(hosts.joined(separator: " "))
        HostName 127.0.0.1
        Port \(port)
        User \(user)
        IdentityFile \(dir)/user_key
        IdentitiesOnly yes
        StrictHostKeyChecking no
        UserKnownHostsFile /dev/null
        LogLevel ERROR

      """
    try client.write(toFile: "\(dir)/ssh_config", atomically: true, encoding: .utf8)
    server.executableURL = URL(fileURLWithPath: "/usr/sbin/sshd")
    server.arguments = ["-D", "-e", "-f", "\(dir)/sshd_config"]
    let log =
      FileHandle(forWritingAtPath: "\(dir)/sshd.log")
      ?? {
        FileManager.default.createFile(atPath: "\(dir)/sshd.log", contents: nil)
        return FileHandle(forWritingAtPath: "\(dir)/sshd.log")!
      }()
    server.standardOutput = log
    server.standardError = log
    try server.run()
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if let fd = Loopback.connect(port: port) {
        close(fd)
        return
      }
      usleep(20_000)
    }
    server.terminate()
    throw Failure(description: "sshd did not listen on \(port): \(log)")
  }

  deinit { stop() }

  /// The environment that makes `verdicts` reach the lab's hosts: its ssh config, and the
  /// device's `verdicts` at `remoteBinary`.
  public func environment(remoteBinary: String) -> [String: String] {
    ["VERDICTS_SSH": "ssh -F \(folder.path)/ssh_config", "VERDICTS_REMOTE_PATH": remoteBinary]
  }

  /// The per-connection sshd processes (each link's and their children: the session's shell
  /// and the device's `verdicts`), by pid.
  public func sessions() -> [Int32] {
    var found: [Int32] = []
    var parents = [server.processIdentifier]
    while let parent = parents.popLast() {
      let children = (try? ChildProcess.run("/usr/bin/pgrep", ["-P", "\(parent)"]))?.output ?? ""
      let pids = children.split(separator: "\n").compactMap { Int32($0) }
      found += pids
      parents += pids
    }
    return found
  }

  /// The sshd processes among ``sessions()``: the links themselves, not what runs in them.
  private func linkProcesses() -> [Int32] {
    sessions().filter { pid in
      ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").hasPrefix("sshd")
    }
  }

  /// Freezes every link as a cable pulled out would: nothing more crosses, nothing is closed.
  public func freezeLinks() { for pid in linkProcesses() { kill(pid, SIGSTOP) } }

  /// Ends every link at once (a reset), the server still listening for new ones. Only sshd's
  /// processes are killed: what runs in a session (the login shell, the device's `verdicts`)
  /// ends by itself when its pipes close, as after a real reset, so that a shell's startup
  /// files are never cut short (a killed `pyenv rehash` in a `.bashrc` leaves its lock, and
  /// every later session waits 60 s for it).
  public func cutLinks() {
    for pid in linkProcesses() {
      kill(pid, SIGKILL)
      kill(pid, SIGCONT)
    }
  }

  /// Stops the server and every link.
  public func stop() {
    cutLinks()
    if server.isRunning {
      server.terminate()
      server.waitUntilExit()
    }
  }
}
