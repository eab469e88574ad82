import Foundation
import MarfaQueue
import TestSupport
import Testing

/// `y` and `Y` in the real TUI, on a pseudo-terminal (`script`): the bytes the terminal gets.
@Suite(.serialized) struct ClipboardPtyTests {
  static let script = "/usr/bin/script"
  static let haveScript = FileManager.default.isExecutableFile(atPath: script)

  /// Runs `verdicts --store STORE` at 80×24 in `script`, typing `keys` (each after a pause);
  /// returns every byte written to the terminal.
  func runTUI(_ folder: TempFolder, keys: [String]) throws -> [UInt8] {
    let binary = try Binary.require()
    let p = ChildProcess()
    p.executableURL = URL(fileURLWithPath: Self.script)
    p.arguments = ["-q", "-e", "-c", "stty cols 80 rows 24; '\(binary)' --store '\(folder.store)'", "/dev/null"]
    p.currentDirectoryURL = URL(fileURLWithPath: folder.path)
    p.environment = [
      "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": folder.path, "XDG_CONFIG_HOME": folder.path + "/config",
      "PATH": "/usr/bin:/bin",
    ]
    let input = Pipe()
    let output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    p.standardError = FileHandle.nullDevice
    try p.run()
    let reader = Task.detached { output.fileHandleForReading.readDataToEndOfFile() }
    // Keys paced by fixed pauses: what `script` relays shows no sign that the screen is up or a
    // key was read.
    Thread.sleep(forTimeInterval: 2)
    for key in keys {
      input.fileHandleForWriting.write(Data(key.utf8))
      Thread.sleep(forTimeInterval: 1)
    }
    input.fileHandleForWriting.write(Data("q".utf8))
    waitUntil(within: .seconds(15), every: .milliseconds(50)) { !p.isRunning }
    if p.isRunning { p.terminate() }
    try? input.fileHandleForWriting.close()
    let semaphore = DispatchSemaphore(value: 0)
    let box = SharedValue(Data())
    Task {
      let data = await reader.value
      box.update { $0 = data }
      semaphore.signal()
    }
    semaphore.wait()
    return [UInt8](box.value)
  }

  func queueOne(_ folder: TempFolder) throws -> String {
    let r = try Binary.run(
      ["--json", "items", "create", "--type", "note", "--properties", "{}"], store: folder.store, home: folder.path)
    return try #require(r.json?["id"]?.stringValue)
  }

  /// Every OSC (`ESC ]`) sequence in the bytes, each up to its BEL.
  func oscSequences(_ bytes: [UInt8]) -> [[UInt8]] {
    var out: [[UInt8]] = []
    var i = 0
    while i + 1 < bytes.count {
      if bytes[i] == 0x1B, bytes[i + 1] == 0x5D {
        let end = bytes[i...].firstIndex(of: 0x07) ?? bytes.count - 1
        out.append(Array(bytes[i...end]))
        i = end
      }
      i += 1
    }
    return out
  }

  @Test(.enabled(if: haveScript, "needs util-linux script for a pseudo-terminal"))
  func yWritesOneOSC52SequenceCarryingTheFullIDAndNothingElseRaw() throws {
    let folder = TempFolder()
    let id = try queueOne(folder)
    let bytes = try runTUI(folder, keys: ["y"])
    let expected = Array("\u{1B}]52;c;".utf8) + Array(Data(id.utf8).base64EncodedString().utf8) + [0x07]
    #expect(oscSequences(bytes) == [expected], "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
    #expect(String(decoding: bytes, as: UTF8.self).contains("copied \(id) to the clipboard"))
  }

  @Test(.enabled(if: haveScript, "needs util-linux script for a pseudo-terminal"))
  func withTheClipboardOffNothingRawIsSentAndTheIDIsShown() throws {
    let folder = TempFolder()
    let id = try queueOne(folder)
    try FileManager.default.createDirectory(atPath: folder.path + "/config/verdicts", withIntermediateDirectories: true)
    try Data("clipboard = off\n".utf8).write(to: URL(fileURLWithPath: folder.path + "/config/verdicts/config"))
    let bytes = try runTUI(folder, keys: ["y"])
    #expect(oscSequences(bytes).isEmpty)
    #expect(String(decoding: bytes, as: UTF8.self).contains(String(id.suffix(20))))
  }

  @Test(.enabled(if: haveScript, "needs util-linux script for a pseudo-terminal"))
  func shiftYWritesTheShowTextToAFileInTheCurrentFolderAndNamesIt() throws {
    let folder = TempFolder()
    let id = try queueOne(folder)
    let bytes = try runTUI(folder, keys: ["Y"])
    let name = "verdicts-\(id.suffix(8)).txt"
    let text = try String(contentsOfFile: folder.file(name), encoding: .utf8)
    #expect(text.hasPrefix("id           \(id)\n"), "\(text)")
    let show = try Binary.run(["show", id], store: folder.store, home: folder.path)
    #expect(text == show.stdout, "the export is what `show` prints")
    #expect(String(decoding: bytes, as: UTF8.self).contains("wrote 1 write to ./\(name)"))
  }
}
