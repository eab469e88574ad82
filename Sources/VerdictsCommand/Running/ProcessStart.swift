import CLinux
import FoundationEssentials
import VerdictsUI

#if canImport(Glibc)
  import Glibc
#endif

/// How the process came to be: its arguments as the bytes received, whether `/proc` is there,
/// and the Swift backtracer told to write a file rather than take the person's terminal.
public enum ProcessStart {
  /// The arguments as the bytes received, without the program's name; nil when they cannot be
  /// read at all (the caller says so and exits 2, never taking no arguments for none given).
  ///
  /// The runtime's own come first. A Swift runtime linked in (`make release`, `-static-stdlib`)
  /// finds them through `/proc/self/maps`, and may find none (`CommandLine.argc` is 0): where
  /// `/proc` is not mounted, or under an `LD_PRELOAD` library that moves the environment first
  /// (libfaketime). Then they are read from `/proc/self/cmdline`, and where that cannot be read,
  /// from where the kernel put them, just below the environment on the stack
  /// (``argumentVectorFromStack()``). Each must hold at least the program's name: a process
  /// started with no `argv[0]` at all (`execve` with an empty list) is refused too.
  public static func arguments() -> [[UInt8]]? {
    arguments(runtime: CommandLine.argc > 0 ? vector(CommandLine.unsafeArgv, Int(CommandLine.argc)) : nil)
  }

  /// ``arguments()`` from what the runtime gave (nil: none) and what `cmdline` reads (the
  /// contents of `/proc/self/cmdline`, nil when it cannot be read); tests give both.
  static func arguments(
    runtime: [[UInt8]]?, cmdline: () -> [UInt8]? = { readCommandLine() },
    stack: () -> [[UInt8]]? = { argumentVectorFromStack().map { vector($0.0, $0.1) } }
  ) -> [[UInt8]]? {
    if let runtime, !runtime.isEmpty { return Array(runtime.dropFirst()) }
    if let bytes = cmdline(), !bytes.isEmpty {
      // Each argument ends with a NUL (an empty one too).
      var words = bytes.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
      if bytes.last == 0 { words.removeLast() }
      if !words.isEmpty { return Array(words.dropFirst()) }
    }
    if let fromStack = stack(), !fromStack.isEmpty { return Array(fromStack.dropFirst()) }
    return nil
  }

  /// `argv[0..<argc]` as bytes.
  static func vector(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ argc: Int) -> [[UInt8]] {
    (0..<max(0, argc)).map { i in
      guard let p = argv[i] else { return [] }
      return Array(
        UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
    }
  }

  /// The bytes of `/proc/self/cmdline` (the arguments, each ended by a NUL), or nil when the file
  /// cannot be read.
  static func readCommandLine() -> [UInt8]? {
    let fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { return nil }
      if n == 0 { return bytes }
      bytes += chunk[0..<n]
    }
  }

  /// The message and exit code when ``arguments()`` gives nil.
  public static let unreadableArguments =
    "verdicts: the program's arguments cannot be read (the runtime holds none, /proc/self/cmdline cannot be "
    + "read, and none are where the kernel put them); nothing was done\n"

  /// The process's `argv` and `argc`: the runtime's, else the kernel's from the stack; nil when
  /// neither can be found.
  static func argumentVector() -> (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, Int)? {
    if CommandLine.argc > 0 { return (CommandLine.unsafeArgv, Int(CommandLine.argc)) }
    return argumentVectorFromStack()
  }

  /// `argv` and `argc` as the kernel laid them out (the System V ABI's initial stack: `argc`,
  /// the `argv` pointers, NULL, then the `envp` pointers `environ` points at, all below the
  /// strings they point to). Read only while `environ` is still the kernel's.
  static func argumentVectorFromStack() -> (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, Int)? {
    let kernels: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
    guard let envp = kernels else { return nil }
    let floor = UInt(bitPattern: UnsafeRawPointer(envp))
    // The word before envp[0] is the NULL that ends argv.
    guard (envp - 1).pointee == nil else { return nil }
    var count = 0
    var at = envp - 2
    while count < 1 << 20 {
      let word = UnsafeRawPointer(at).load(as: UInt.self)
      // argc: the first word that is not a pointer into the strings above.
      if word == UInt(count) { return (at + 1, count) }
      guard word > floor else { return nil }
      count += 1
      at -= 1
    }
    return nil
  }

  /// Whether `/proc` is mounted (the process's own entry is there).
  public static var procMounted: Bool { access("/proc/self/stat", F_OK) == 0 }

  /// How much address space a run needs beyond what the process holds at its start: its
  /// threads' stacks, libcurl and the libraries it loads, SQLite's pages. Under a lower
  /// `ulimit -v`, libdispatch cannot start the threads that run the program's tasks, and it
  /// sleeps and tries again for as long as it cannot: a command stalled for seconds or for good.
  static let addressRoomNeeded = 96 << 20

  /// The address-space limit (`ulimit -v`), in bytes, when it leaves less than
  /// ``addressRoomNeeded`` free; nil when there is room or no limit. Asks by mapping that much
  /// address space, never touched, and letting it go at once. Under a limit, keeps malloc to one
  /// arena.
  public static func addressSpaceLimitTooLow() -> Int? {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
      return nil
    }
    // One malloc arena: each further one reserves 64 MiB of address space, taken by whichever
    // thread allocates first, so that under a limit a run's room depended on its threads' timing
    // (a limit of 160 MB drained, or stalled 10 s and failed, run by run).
    _ = clinux_one_malloc_arena()
    let room = mmap(nil, addressRoomNeeded, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
    guard let room, room != UnsafeMutableRawPointer(bitPattern: -1) else { return Int(limit.rlim_cur) }
    munmap(room, addressRoomNeeded)
    return nil
  }

  /// Where crash reports go: `$XDG_STATE_HOME/verdicts/crashes`, else
  /// `~/.local/state/verdicts/crashes` (made, only for the owner, when needed).
  static func crashFolder(_ environment: [String: String]) -> String? {
    let store = GlobalOptions.defaultStore(environment)
    guard let slash = store.lastIndex(of: "/") else { return nil }
    let folder = String(store[..<slash]) + "/crashes"
    var at = ""
    for part in folder.split(separator: "/") {
      at += "/" + part
      if mkdir(at, 0o700) != 0 && errno != EEXIST { return nil }
    }
    var info = stat()
    guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else { return nil }
    return folder
  }

  /// Starts the program again, once, with the Swift backtracer told to write its report to a
  /// file, when it would otherwise take the terminal.
  ///
  /// The runtime reads `SWIFT_BACKTRACE` once, before `main`; with standard input and output on
  /// a terminal and nothing set it is interactive: after a crash it holds the terminal, raw,
  /// for 30 s ("Press space to interact…"). So when that is so (the runtime's crash handler is
  /// installed, which it is only when it found its `swift-backtrace`, `SWIFT_BACKTRACE` is not
  /// set, both streams are terminals) the program executes itself again, same pid and
  /// arguments, with `SWIFT_BACKTRACE=enable=yes,interactive=no,color=no,output-to=FILE` and
  /// ``ProcessEnvironment/crashReport`` naming the file for the screen to say. A device without
  /// the toolchain has no backtracer: nothing is done. Returns only when nothing was done.
  public static func sendCrashReportsToAFile(environment: [String: String]) {
    guard environment["SWIFT_BACKTRACE"] == nil, environment[ProcessEnvironment.crashReport] == nil,
      isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, backtracerInstalled
    else { return }
    guard let (argv, _) = argumentVector(), let executable = executablePath(), let folder = crashFolder(environment)
    else { return }
    let report = folder + "/crash-\(getpid())-\(time(nil)).txt"
    // The setting is a comma-separated list: a path holding a comma cannot be given.
    let output = report.contains(",") ? "stderr" : report
    setenv("SWIFT_BACKTRACE", "enable=yes,interactive=no,color=no,output-to=\(output)", 1)
    setenv(ProcessEnvironment.crashReport, output == "stderr" ? "" : report, 1)
    execv(executable, argv)
    // Not started again: go on as before.
    unsetenv("SWIFT_BACKTRACE")
    unsetenv(ProcessEnvironment.crashReport)
  }

  /// Whether a crash handler is installed for SIGILL (the Swift runtime's, which means a
  /// backtracer was found and crash catching is on).
  static var backtracerInstalled: Bool {
    var current = sigaction()
    guard sigaction(SIGILL, nil, &current) == 0 else { return false }
    return current.sa_flags & SA_SIGINFO != 0 && current.__sigaction_handler.sa_sigaction != nil
  }

  /// The executable's path: `/proc/self/exe`, else the name it was executed by (`AT_EXECFN`,
  /// relative to the folder it was started in, which the program has not left yet).
  static func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    // AT_EXECFN is 31.
    guard let at = auxiliaryValue(31), at != 0, let p = UnsafePointer<CChar>(bitPattern: at) else { return nil }
    return String(cString: p)
  }

  /// A value of the process's auxiliary vector (`getauxval`, which needs no `/proc`; found with
  /// `dlsym`, as the Glibc module does not declare it); nil when it cannot be read.
  static func auxiliaryValue(_ type: UInt) -> UInt? {
    typealias GetAuxVal = @convention(c) (UInt) -> UInt
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getauxval") else { return nil }
    return unsafeBitCast(symbol, to: GetAuxVal.self)(type)
  }
}
