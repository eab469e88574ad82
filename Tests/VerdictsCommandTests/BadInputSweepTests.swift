import Foundation
import MarfaQueue
import TestSupport
import Testing

@testable import VerdictsCommand

/// Every command with malformed, missing and out-of-range arguments, generated from the command
/// table: exit 2 `usage`, one clear line, no raw escape echoed, and the store as it was.
@Suite(.serialized) struct BadInputSweepTests {
  /// A line the parser accepts for `spec`: its required positionals and options filled.
  static func base(_ path: [String], _ spec: CommandSpec) -> [String] {
    var line = path
    for p in spec.positionals where p.arity == .required { line.append("x") }
    for o in spec.options where o.required { line += [o.name, good(o.value)] }
    return line
  }

  static func good(_ kind: ValueKind) -> String {
    switch kind {
    case .flag, .text, .segment, .name: return "x"
    case .integer(let range): return String(range.lowerBound)
    case .jsonObject: return "{}"
    case .choice(let choices): return choices.first ?? "x"
    }
  }

  /// Values an option of this kind must refuse.
  static func bad(_ kind: ValueKind) -> [String] {
    switch kind {
    case .flag, .text: return []
    case .segment: return [".", "..", "", " "] + overLimit(ValueKind.nameLimit)
    case .name(let maxBytes): return ["", " "] + overLimit(maxBytes)
    case .integer(let range):
      var out = ["abc", "1.5", "", "99999999999999999999999", "\u{1B}[2J", "0x10", "--"]
      if range.lowerBound > Int.min { out.append(String(range.lowerBound - 1)) }
      if range.upperBound < Int.max { out.append(String(range.upperBound + 1)) }
      return out
    case .jsonObject:
      return ["{", "[]", "\"x\"", "1", "null", "{\"a\":1}x", "{'a':1}", "", "\u{1B}[31m{}", "{\"a\":\"\\ud800\"}"]
    case .choice(let choices):
      return ["not-a-choice", "", (choices.first ?? "x").uppercased() + "\u{1B}", "\u{202E}x"]
    }
  }

  /// Values one byte past `maxBytes`: in ASCII, and in two-byte characters (fewer characters
  /// than the limit, more bytes).
  static func overLimit(_ maxBytes: Int) -> [String] {
    [String(repeating: "x", count: maxBytes + 1), String(repeating: "é", count: maxBytes / 2 + 1)]
  }

  /// Every malformed line for every command, with what it is.
  static func lines() -> [(String, [String])] {
    var out: [(String, [String])] = []
    for (path, spec) in CommandTable.root.walk() where spec.id != nil {
      let base = base(path, spec)
      out.append(("unknown option", base + ["--no-such-option"]))
      out.append(("unknown option with an escape", base + ["--\u{1B}[2Jx"]))
      if !spec.positionals.contains(where: { $0.arity == .many }) {
        out.append(("extra positional", base + Array(repeating: "extra", count: spec.positionals.count + 1)))
      }
      if spec.positionals.contains(where: { $0.arity == .required }) {
        out.append(
          (
            "missing positional",
            path + base.dropFirst(path.count + spec.positionals.filter { $0.arity == .required }.count)
          ))
      }
      // A path segment (an id, a tag, a namespace) that is empty, `.` or `..`, and any id or
      // name past its length limit, in each place.
      let required = spec.positionals.filter { $0.arity == .required }
      for (i, p) in required.enumerated() where p.kind.maxBytes != nil {
        for v in bad(p.kind) {
          var line = base
          line[path.count + i] = v
          out.append(("\(p.name) \(v.debugDescription)", line))
        }
      }
      for o in spec.options {
        let without =
          o.required ? Array(base.prefix(path.count + spec.positionals.filter { $0.arity == .required }.count)) : base
        if o.value.takesValue {
          out.append(("\(o.name) without its value", without + [o.name]))
          for v in bad(o.value) { out.append(("\(o.name) \(v.debugDescription)", without + [o.name, v])) }
        } else {
          out.append(("\(o.name) given a value", base + ["\(o.name)=yes"]))
        }
      }
    }
    return out
  }

  @Test("every command refuses malformed arguments with usage, exit 2 and leaves the store as it was")
  func everyCommandRefusesMalformedArgumentsWithUsageExitTwoAndLeavesTheStoreAsItWas() async throws {
    let folder = TempFolder()
    for i in 0..<3 {
      let r = await runInProcess(
        ["--json", "items", "create", "--type", "note", "--properties", "{\"n\":\(i)}"], store: folder.store)
      #expect(r.code == 0, "\(r)")
    }
    let queueBefore = await runInProcess(["--json", "queue"], store: folder.store).stdout
    let bytesBefore = folder.storeBytes()
    var tried = 0
    var parsedAnyway: [String] = []
    for (what, line) in Self.lines() {
      // Only lines the parser refuses are run: a line that parses would run its command (some
      // run until interrupted), and is listed instead.
      guard case .failure = CommandTable.parser.parse(line) else {
        parsedAnyway.append("\(what): \(line)")
        continue
      }
      tried += 1
      for json in [true, false] {
        let r = await runInProcess((json ? ["--json"] : []) + line, store: folder.store)
        #expect(r.code == 2, "\(what) \(line): \(r)")
        if json {
          #expect(r.errorCode == "usage", "\(what) \(line): \(r)")
        } else {
          #expect(r.stderr.hasPrefix("verdicts: "), "\(what) \(line): \(r)")
          #expect(
            !r.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E },
            "\(what): raw control echoed: \(r.stderr)")
        }
        #expect(r.stdout.isEmpty, "\(what) \(line): \(r)")
      }
    }
    #expect(parsedAnyway.isEmpty, "lines the parser took: \(parsedAnyway)")
    #expect(tried > 100, "only \(tried) malformed lines")
    #expect(folder.storeBytes() == bytesBefore, "a refused line changed the store")
    #expect(await runInProcess(["--json", "queue"], store: folder.store).stdout == queueBefore)
    print(
      "bad input: \(tried) malformed lines over \(CommandTable.root.walk().filter { $0.spec.id != nil }.count) commands, each with and without --json"
    )
  }
}
