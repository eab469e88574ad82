/// What the man page (and `verdicts help options`) says besides the commands: the environment
/// variables, the files and the exit statuses, written once, next to the command table.
///
/// docs/cli.md's "Environment variables" and "Failures" tables say the same; a test keeps the
/// two in step.
enum ManualTable {
  /// Every environment variable `verdicts` reads, flag-backed ones first.
  static let environment: [ManualEntry] = [
    ManualEntry("MARFA_DB", "the store, when --store is not given"),
    ManualEntry("MARFA_API_URL", "the instance, when --url is not given"),
    ManualEntry(
      "MARFA_API_KEY",
      "the API key, when neither --key nor --key-file is given: the safe way to give it (never printed, stored "
        + "or logged)"),
    ManualEntry(
      "http_proxy, https_proxy, HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, all_proxy",
      "never used: requests go straight to the instance unless --proxy "
        + "names a proxy; a command that talks to the instance says once which it found set"),
    ManualEntry("VERDICTS_THEME", "the TUI's theme, when --theme is not given"),
    ManualEntry(
      "VERDICTS_SSH",
      "the ssh command line a remote store (--store HOST:PATH) is reached through (default: ssh), as GIT_SSH_COMMAND"),
    ManualEntry("VERDICTS_REMOTE_PATH", "the device's verdicts, when it is not on the device's PATH"),
    ManualEntry(
      "SSH_ORIGINAL_COMMAND",
      "read by serve --read-only under a key pinned to it: what was asked, refused unless it is a screen's link"),
    ManualEntry("NO_COLOR", "no colours, when set and not empty (as --no-color)"),
    ManualEntry(
      "XDG_STATE_HOME",
      "the default store is $XDG_STATE_HOME/verdicts/queue.store when this is an absolute path"),
    ManualEntry(
      "XDG_CONFIG_HOME",
      "the folder of keys.conf, config and themes/: $XDG_CONFIG_HOME/verdicts (else ~/.config/verdicts)"),
    ManualEntry(
      "HOME",
      "the default store (~/.local/state/verdicts/queue.store) and the config folder when the XDG variables are not "
        + "set; a leading ~/ in --store, --key-file and --log"),
    ManualEntry(
      "LC_ALL, LC_CTYPE, LANG",
      "the first one set names the locale; outside a UTF-8 locale every byte printed is ASCII, as with --ascii"),
    ManualEntry("TERM", "the terminal the TUI draws on (ncurses)"),
    ManualEntry("TERMINFO", "where ncurses finds the terminal's description, when it is not in the system's"),
    ManualEntry(
      "TMUX, STY",
      "set inside tmux or GNU screen: y sends its OSC 52 copy also in the multiplexer's passthrough and says it "
        + "was sent to the terminal (and how to let it on), never that it was copied"),
    ManualEntry(
      "VERDICTS_INSTANCE_WRITE_DELAY_MS",
      "verdicts instance waits this long before answering each write (up to 10,000 ms), so a drain lasts long "
        + "enough to be watched"),
    ManualEntry(
      "SWIFT_BACKTRACE",
      "the Swift runtime's crash reports; when it is not set and both standard input and output are a terminal, "
        + "verdicts starts itself again once with it set to write a report to a file (never the interactive "
        + "backtracer that held the terminal for 30 s), and the screen names the file after giving the terminal back"),
    ManualEntry(
      "VERDICTS_TEST_TRAP",
      "tests only: 1, the screen traps after its first frame; thread, another thread traps while it draws (the "
        + "terminal is given back either way)"),
    ManualEntry(
      "VERDICTS_CRASH_REPORT",
      "set by verdicts itself when it starts itself again with SWIFT_BACKTRACE: the crash report's file, which the "
        + "screen names after giving the terminal back"),
    ManualEntry(
      "VERDICTS_TEST_LINGER_SECONDS",
      "tests only: a write command waits this long after printing the queued write, so a test can kill -9 it "
        + "after the print and before it exits"),
  ]

  /// Every file `verdicts` reads or writes by itself.
  static let files: [ManualEntry] = [
    ManualEntry(
      "$XDG_STATE_HOME/verdicts/queue.store",
      "the default store (a SQLite file), else ~/.local/state/verdicts/queue.store; --store or MARFA_DB name "
        + "another. Only the commands that queue a write or fill create it, owner-only (file 0600, folders 0700)."),
    ManualEntry(
      "$XDG_STATE_HOME/verdicts/crashes/",
      "crash reports (crash-PID-TIME.txt), written by the Swift runtime when a toolchain's backtracer is there; "
        + "else ~/.local/state/verdicts/crashes/, owner-only."),
    ManualEntry(
      "STORE.lock",
      "beside the store (its resolved path): the writer lock, never followed through a symbolic link, and only "
        + "if it is the user's. The writer also holds a lock on the first byte of the store file itself, so every "
        + "name of one store meets it; watchers ask the kernel whether it is held, without taking it."),
    ManualEntry(
      "STORE.blobs/",
      "beside the store: the bytes blobs put queued, named by their SHA-256, until a drain sends them; each "
        + "checked against its hash before it is sent, never followed through a symbolic link."),
    ManualEntry(
      "$XDG_CONFIG_HOME/verdicts/keys.conf",
      "the TUI's keys, remapped: action = key [key...] lines (else ~/.config/verdicts/keys.conf)."),
    ManualEntry(
      "$XDG_CONFIG_HOME/verdicts/config",
      "the TUI's settings: name = value lines (confirm-withdraw, confirm-discard, confirm-take, confirm-bulk, "
        + "mouse, clipboard, theme, ascii)."),
    ManualEntry(
      "$XDG_CONFIG_HOME/verdicts/themes/NAME.theme",
      "a theme of your own, named by --theme NAME or VERDICTS_THEME; the built-in ones need no file."),
    ManualEntry(
      "--log FILE",
      "the TUI's log (actions and errors, never the screen or the key); nothing is logged without it."),
  ]

  /// Every exit status, in order.
  static let exitStatus: [ExitStatusEntry] = [
    ExitStatusEntry(code: .done, meaning: "done (a drain: whatever the verdicts)", errorCodes: []),
    ExitStatusEntry(
      code: .refused,
      meaning:
        "refused by the instance, or refused to it: a root or an answer on another contract (or none), a redirect",
      errorCodes: ["server", "contract_mismatch", "redirect"]),
    ExitStatusEntry(
      code: .usage, meaning: "a usage error, or no store",
      errorCodes: ["ambiguous", "usage", "no_store", "no_server"]),
    ExitStatusEntry(
      code: .environment,
      meaning:
        "the environment: the network (also a drain that ended unavailable or left writes undelivered; its report "
        + "is still printed), a drain stopped by Ctrl-C or SIGTERM, the store's file or disk, output that could "
        + "not be written, /proc not mounted, an address-space limit too low to start, a link to another machine "
        + "that could not be made",
      errorCodes: [
        "network", "canceled", "storage_full", "store", "closed", "io", "write_error", "no_proc",
        "out_of_memory", "link",
      ]),
    ExitStatusEntry(
      code: .deviceRule,
      meaning:
        "a device rule: a reading handle, an incomplete or expired copy, no cursor, an id the queue doesn't hold, "
        + "a row the copy doesn't hold, "
        + "a file that is not a store of this schema, input the queue's rules refuse",
      errorCodes: [
        "reading_handle", "hydration_incomplete", "copy_expired", "no_cursor", "not_found", "not_held", "wrong_schema",
        "invalid", "undo_refused", "read_only",
      ]),
    ExitStatusEntry(
      code: .credential, meaning: "the credential: a drain stopped by a refused key (its report is still printed)",
      errorCodes: ["unauthorized"]),
  ]
}
