import Foundation
import TestSupport
import Testing

/// The shared golden-file helper: a match passes, a difference or a missing file is reported,
/// and recording writes only what the mode allows.
@Suite struct GoldenFilesTests {
  static func folder() -> GoldenFiles {
    GoldenFiles(directory: FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)"))
  }

  @Test func aMatchingScreenPassesAndADifferentOneSaysBoth() throws {
    let golden = Self.folder()
    defer { try? FileManager.default.removeItem(at: golden.directory) }
    try FileManager.default.createDirectory(at: golden.directory, withIntermediateDirectories: true)
    try "row one\n".write(to: golden.directory.appendingPathComponent("s.txt"), atomically: true, encoding: .utf8)
    #expect(golden.compare("s", "row one", mode: .never) == nil)
    let problem = golden.compare("s", "row two", mode: .never)
    #expect(problem == "golden s.txt differs:\n--- expected\nrow one\n--- got\nrow two\n")
    #expect(golden.compare("s", "row two", mode: .missing) != nil, "recording missing goldens never rewrites one")
  }

  @Test func aMissingGoldenFailsUnlessRecordingAndRecordingWritesIt() throws {
    let golden = Self.folder()
    defer { try? FileManager.default.removeItem(at: golden.directory) }
    #expect(golden.compare("new", "text", mode: .never)?.hasPrefix("golden new.txt is missing") == true)
    #expect(!FileManager.default.fileExists(atPath: golden.directory.path))
    #expect(golden.compare("new", "text", mode: .missing) == nil)
    #expect(try String(contentsOf: golden.directory.appendingPathComponent("new.txt"), encoding: .utf8) == "text\n")
    #expect(golden.compare("new", "other", mode: .all) == nil)
    #expect(golden.compare("new", "other", mode: .never) == nil)
  }

  @Test func theRecordModeComesFromVerdictsRecord() {
    #expect(GoldenFiles.RecordMode(environment: nil) == .never)
    #expect(GoldenFiles.RecordMode(environment: "1") == .missing)
    #expect(GoldenFiles.RecordMode(environment: "all") == .all)
    #expect(GoldenFiles.RecordMode(environment: "yes") == .never)
  }
}
