import Foundation
import MarfaQueue
import Testing

@testable import VerdictsUI

/// Every config file the TUI reads (config, keys file, theme) is bounded, only a file, and
/// a bad one is reported by its first bad line, never ignored or read for minutes.
@Suite struct ConfigFileTests {
  /// A config folder of its own, removed after the test.
  final class Folder {
    let home = FileManager.default.temporaryDirectory.path + "/verdicts-config-" + UUID().uuidString
    var dir: String { home + "/verdicts" }
    init() { try! FileManager.default.createDirectory(atPath: home + "/verdicts", withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: home) }
    func put(_ name: String, _ bytes: [UInt8]) {
      FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(bytes))
    }
    var options: AppOptions { AppOptions(environment: ["XDG_CONFIG_HOME": home]) }
  }

  @Test func aKeysFileWithInvalidUTF8IsReportedByItsLineNotIgnored() {
    let f = Folder()
    f.put("keys.conf", Array("quit = q\n# fine\n".utf8) + [0x64, 0x72, 0xFF, 0x0A] + Array("help = ?\n".utf8))
    let prepared = VerdictsApp.prepare(source: FakeQueue(writes: []), options: f.options)
    #expect(
      prepared.problems.contains { $0.contains("keys file") && $0.contains("line 3 is not UTF-8") },
      "\(prepared.problems)")
    #expect(prepared.state.message?.isError == true)
  }

  @Test func aKeysFileOfAMillionBadLinesIsRefusedAtOnceByItsSize() {
    let f = Folder()
    f.put("keys.conf", Array(String(repeating: "bad\n", count: 1_000_000).utf8))
    let started = Date()
    let prepared = VerdictsApp.prepare(source: FakeQueue(writes: []), options: f.options)
    #expect(Date().timeIntervalSince(started) < 1, "reading took \(Date().timeIntervalSince(started)) s")
    #expect(prepared.problems.contains { $0.contains("at most \(ConfigFile.textLimit)") }, "\(prepared.problems)")
    #expect(prepared.state.keyMap == KeyMap.defaults)
  }

  @Test func aThemeThatIsADeviceOrTooBigIsRefusedWithWhatItIs() {
    let f = Folder()
    let (_, device) = ThemeChoice.load("/dev/zero")
    #expect(device.contains { $0.contains("character device") }, "\(device)")
    f.put("big.theme", Array(repeating: 0x23, count: ConfigFile.textLimit + 1))
    let (_, big) = ThemeChoice.load(f.dir + "/big.theme")
    #expect(big.contains { $0.contains("at most") }, "\(big)")
  }
}
