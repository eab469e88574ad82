import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Through the built binary, on a terminal of its own: a `--log` that is a symbolic link, a FIFO
/// or a device is refused before the screen starts (exit 2, saying why), never written through
/// and never waited on (docs/reliability.md, "Third attack round (B)").
@Suite(.serialized) struct NamedFileBinaryTests {
  /// A store with one write, to watch.
  func store(_ t: TempFolder) throws {
    let r = try Binary.run(["items", "create", "--type", "note", "--properties", "{}"], store: t.store, home: t.path)
    #expect(r.code == 0, "\(r)")
  }

  /// `verdicts --log log watch` on a terminal: it must end at once, exit 2, saying `words`.
  func refused(_ log: String, _ t: TempFolder, saying words: String) throws {
    let started = Date()
    let pty = try ScreenPty(
      ["--log", log, "watch"], environment: Binary.environment(store: t.store, home: t.path, [:]))
    defer { pty.stop() }
    #expect(pty.waitForExit(timeout: 10), "still running: \(pty.text.suffix(400).debugDescription)")
    #expect(Date().timeIntervalSince(started) < 5)
    #expect(pty.process.terminationStatus == 2, "\(pty.text.suffix(400).debugDescription)")
    #expect(pty.text.contains(words), "\(pty.text.suffix(400).debugDescription)")
    // Refused before the screen: no alternate screen was entered.
    #expect(!pty.text.contains("\u{1B}[?1049h"), "\(pty.text.suffix(400).debugDescription)")
  }

  @Test func aLogThatIsASymbolicLinkIsRefusedAndItsTargetLeftAsItWas() throws {
    let t = TempFolder()
    try store(t)
    let victim = t.path + "/victim"
    try "kept as it was\n".write(toFile: victim, atomically: false, encoding: .utf8)
    let link = t.path + "/log-link"
    #expect(symlink(victim, link) == 0)
    try refused(link, t, saying: "is a symbolic link, which is not followed")
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "kept as it was\n")
    // A link to a file that is not there yet is not made through either.
    let dangling = t.path + "/dangling"
    #expect(symlink(t.path + "/made-through", dangling) == 0)
    try refused(dangling, t, saying: "is a symbolic link")
    #expect(!FileManager.default.fileExists(atPath: t.path + "/made-through"))
  }

  @Test func aLogThatIsAFIFOIsRefusedAtOnceWithOrWithoutAReader() throws {
    let t = TempFolder()
    try store(t)
    let fifo = t.path + "/fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    try refused(fifo, t, saying: "is a FIFO (a named pipe), which could block")
    // With a reader there, it would open at once: refused all the same, nothing written to it.
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    #expect(reader >= 0)
    defer { close(reader) }
    try refused(fifo, t, saying: "is a FIFO")
    var byte: UInt8 = 0
    #expect(read(reader, &byte, 1) <= 0)
  }

  @Test func aLogThatIsADeviceOrAFolderIsRefused() throws {
    let t = TempFolder()
    try store(t)
    try refused("/dev/null", t, saying: "is a device: only a regular file is taken")
    try refused(t.path, t, saying: "is a folder")
  }

  @Test func aLogThatIsARegularFileIsAppendedToAsBefore() throws {
    let t = TempFolder()
    try store(t)
    let log = t.path + "/watch.log"
    try "an earlier line\n".write(toFile: log, atomically: false, encoding: .utf8)
    let pty = try ScreenPty(
      ["--log", log, "watch"], environment: Binary.environment(store: t.store, home: t.path, [:]))
    defer { pty.stop() }
    #expect(pty.waitFor("Waiting", timeout: 20))
    pty.type("q")
    #expect(pty.waitForExit(timeout: 10))
    let text = try String(contentsOfFile: log, encoding: .utf8)
    #expect(text.hasPrefix("an earlier line\n") && text.contains("started"), "\(text)")
  }
}
