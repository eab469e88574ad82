import MarfaQueue

/// `completion`, and the hidden `__complete` and `__man`: the shell scripts, their candidates and
/// the man page, all made from the command table.
extension CommandRunner {
  /// `completion SHELL`: the script (with `--json`, `{"shell", "script"}`).
  func completion() -> ExitCode {
    let shell = args.string("SHELL") ?? ""
    let script = CompletionScript.text(for: shell) ?? ""
    if json {
      context.printJSON(.object([("shell", .string(shell)), ("script", .string(script))]))
    } else {
      context.output.out(script)
    }
    return .done
  }

  /// `__complete WORD...` as the parser took it (the scripts call `__complete -- WORD...`, which
  /// ``VerdictsCLI`` hands over before parsing, so an empty or odd word is taken too).
  func complete() async -> ExitCode {
    await Self.complete(args.strings("WORD"), environment: context.environment, output: context.output)
  }

  /// Prints the candidates for the last of `words` (``CompletionAnswer/text``); never fails, never
  /// prints on standard error, never creates or changes a store.
  static func complete(_ words: [String], environment: [String: String], output: any CommandOutput) async
    -> ExitCode
  {
    let request = Completer().request(for: words.isEmpty ? [""] : words)
    output.out(await request.answer(environment: environment).text)
    return .done
  }

  /// `__man`: the man page (roff), as docs/verdicts.1 holds it.
  func manual() -> ExitCode {
    context.output.out(ManPage.render())
    return .done
  }
}
