import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real OpenSSH server on a free loopback port with keys made for the run (as
/// Tests/TestSupport/SSHLab.swift starts one): the "device" the `remote` section reaches is this
/// machine, logged into as this user. Each link goes through a proxy of its own, named in an ssh
/// config of its own (``config(host:port:)``).
final class BenchSSHD: Sendable {
  /// The server: /usr/sbin/sshd, or the one `VERDICTS_BENCH_SSHD` names (a missing one shows the
  /// section's rows when sshd is not installed).
  static var sshd: String {
    ProcessInfo.processInfo.environment["VERDICTS_BENCH_SSHD"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/sbin/sshd"
  }
  static let keygen = "/usr/bin/ssh-keygen"
  /// Keys, configs and the server's log.
  let folder: String
  /// The port sshd listens on.
  let port: UInt16
  private let server: SpawnedProcess

  /// Why the section cannot run here (nil: it can): sshd, ssh or ssh-keygen missing.
  static var missing: String? {
    let fm = FileManager.default
    if !fm.isExecutableFile(atPath: sshd) { return "sshd is not installed (apt-get install openssh-server)" }
    if !fm.isExecutableFile(atPath: keygen) { return "ssh-keygen is not installed (apt-get install openssh-client)" }
    if !fm.isExecutableFile(atPath: "/usr/bin/ssh") { return "ssh is not installed (apt-get install openssh-client)" }
    return nil
  }

  init(folder: String) throws {
    self.folder = folder
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let env = ProcessInfo.processInfo.environment
    for key in ["host_key", "user_key"] {
      let made = try SpawnedProcess.run(
        Self.keygen, ["-q", "-t", "ed25519", "-N", "", "-f", "\(folder)/\(key)"], environment: env,
        stderr: "\(folder)/keygen.stderr", limit: .seconds(30))
      guard made.wait() == 0 else {
        let text = (try? String(contentsOfFile: "\(folder)/keygen.stderr", encoding: .utf8)) ?? ""
        throw BenchFailure(message: "ssh-keygen exited \(made.wait()): \(text.prefix(300))")
      }
    }
    try FileManager.default.copyItem(atPath: "\(folder)/user_key.pub", toPath: "\(folder)/authorized_keys")
    chmod("\(folder)/authorized_keys", 0o600)
    // sshd run by root needs its privilege-separation folder.
    if getuid() == 0 { mkdir("/run/sshd", 0o755) }
    port = try InstanceProcess.freePort()
    let config = """
      Port \(port)
      ListenAddress 127.0.0.1
      HostKey \(folder)/host_key
      AuthorizedKeysFile \(folder)/authorized_keys
      PidFile \(folder)/sshd.pid
      UsePAM no
      StrictModes no
      PermitRootLogin prohibit-password
      PasswordAuthentication no
      KbdInteractiveAuthentication no
      MaxStartups 200
      LogLevel ERROR

      """
    try config.write(toFile: "\(folder)/sshd_config", atomically: true, encoding: .utf8)
    let null = open("/dev/null", O_RDWR)
    defer { close(null) }
    let log = open("\(folder)/sshd.log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    defer { close(log) }
    server = try SpawnedProcess(
      Self.sshd, ["-D", "-e", "-f", "\(folder)/sshd_config"], environment: env, stdin: null, stdout: log, stderr: log)
    let deadline = ContinuousClock.now + .seconds(10)
    while !InstanceProcess.accepts(port) {
      guard server.isRunning, ContinuousClock.now < deadline else {
        server.stop(SIGKILL, grace: .seconds(1))
        let text = (try? String(contentsOfFile: "\(folder)/sshd.log", encoding: .utf8)) ?? ""
        throw BenchFailure(message: "sshd did not listen on \(port): \(text.prefix(300))")
      }
      usleep(20_000)
    }
  }

  /// Writes an ssh config naming `host` as this server reached through 127.0.0.1:`port` (a
  /// proxy's), and returns its path.
  func config(host: String, port: UInt16, name: String) throws -> String {
    let user = String(cString: getpwuid(getuid())!.pointee.pw_name)
    let text = """
      Host \(host)
        HostName 127.0.0.1
        Port \(port)
        User \(user)
        IdentityFile \(folder)/user_key
        IdentitiesOnly yes
        StrictHostKeyChecking no
        UserKnownHostsFile /dev/null
        LogLevel ERROR

      """
    let path = "\(folder)/\(name)"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Stops the server (the links' own processes end when their connections close).
  func stop() { server.stop(SIGTERM, grace: .seconds(5)) }
}
