import MarfaQueue

/// The whole command tree of `verdicts`, and the options every command accepts.
enum CommandTable {
  /// The version `--version` prints.
  static let version = "verdicts 0.1.0"

  /// Options accepted before and after any command (besides `-h`/`--help` and `--version`).
  static let globals: [OptionSpec] = [
    .value("--store", "PATH", help: "the store file (env MARFA_DB; default $XDG_STATE_HOME/verdicts/queue.store)"),
    .value("--url", "URL", help: "the Marfa instance (env MARFA_API_URL)"),
    .value(
      "--proxy", "URL",
      help: "send every request through this proxy; the environment's (http_proxy, ALL_PROXY, …) are never used"),
    .value(
      "--key", "KEY",
      help: "the API key, or - to read it from standard input; on the command line every user sees it in ps: "
        + "use MARFA_API_KEY or --key-file"),
    .value(
      "--key-file", "PATH", help: "read the API key from the file's first line (the safe way, with MARFA_API_KEY)"),
    .flag("--json", help: "print one JSON value on stdout, and errors as a JSON envelope on stderr"),
    .flag(
      "--reader",
      help: "open the store to read only: no writer role, no file made or changed (a missing store is no_store)"),
    .value("--theme", "NAME|FILE", help: "the TUI's theme (env VERDICTS_THEME)"),
    .flag("--no-color", help: "no colours (also NO_COLOR)"),
    .flag("--ascii", help: "ASCII glyphs only"),
    .value("--log", "FILE", help: "write the log to FILE"),
    .flag("--no-mouse", help: "the TUI leaves clicks and the wheel to the terminal (also mouse = off)"),
  ]

  /// The blocked reasons `release --reason` takes.
  static let reasons = BlockedReason.allCases.map(\.wireName)
  /// The kinds `queue --kind` takes.
  static let kinds = WriteKind.allCases.map(\.wireName)
  /// The panes `queue --pane` takes.
  static let panes = QueuePane.allCases.map(\.name)

  static let baseVersion = OptionSpec.value(
    "--version", "N", .integer(0...Int(Int32.max)),
    help:
      "the version the write is made against (default: the copy's, but items update needs it or --as-read; "
      + "0 for the device's own unanswered create)")

  /// The root: `verdicts` alone runs the TUI.
  static let root = CommandSpec(
    name: "verdicts", summary: "watch a Marfa device's write queue drain, and resolve what can't go", id: .tui,
    subcommands: [
      CommandSpec(name: "tui", summary: "the TUI: writer if the store is free, else read-only", id: .tui),
      CommandSpec(
        name: "watch", summary: "follow the queue read-only", id: .watch,
        options: [
          .flag("--plain", help: "one line per change, no curses (logs, pipes, CI)"),
          .flag("--wait", help: "wait for a store that does not exist yet (never creates it)"),
          .value(
            "--from", "now|ID", .shortName,
            help: "with --plain: list no write first (now), or only the writes queued after ID (default: every write)"),
          .value(
            "--filter", "TERMS",
            help: "with --plain: only the writes this filter matches, as the TUI's / (writer and drain lines stay)"),
        ]),
      CommandSpec(
        name: "demo", summary: "scripted instance + fresh store + the tour scenario + the TUI", id: .demo,
        options: [
          .flag("--plain", help: "run without a terminal; print the log and a summary"),
          .value("--seconds", "N", .integer(1...86_400), help: "how long a --plain demo runs"),
        ]),
      CommandSpec(
        name: "instance", summary: "run the scripted instance in the foreground", id: .instance,
        options: [
          .value("--port", "N", .integer(0...65_535), help: "the port on 127.0.0.1 (default: any free one)"),
          .value("--scenario", "NAME|FILE", help: "a named scenario or a JSON script file"),
        ]),
      CommandSpec(
        name: "serve", summary: "answer a remote screen on stdin/stdout (what ssh runs on the device)", id: .serve,
        options: [
          .flag("--writer", help: "take the writer role when it is free, as the screen does (default: only read)"),
          .flag("--read-only", help: "only watch: never the writer role, and every action refused"),
        ]),
      CommandSpec(
        name: "fleet", summary: "many devices' stores at a glance, each through ssh, trouble first", id: .fleet,
        positionals: [
          PositionalSpec(
            "HOST", .many, help: "a device: host (its default store), host:path or ssh://[user@]host[:port]/path")
        ],
        options: [
          .value("--hosts", "FILE", help: "more devices from FILE, one a line (blank lines and # comments skipped)"),
          .value(
            "--ssh-config-hosts", "PATTERN",
            help:
              "more devices: every name of ~/.ssh/config's Host lines with no wildcard that PATTERN (a glob) matches"),
          .flag("--plain", help: "no screen: a line a device, then a line each time a device's line changes"),
          .flag("--once", help: "with --plain: the first listing only, then exit"),
        ],
        discussion: """
          One ssh connection a device (the system's ssh, as --store host:path uses: VERDICTS_SSH, VERDICTS_REMOTE_PATH),
          each running `verdicts serve` there, read-only. One row a device: reachable or not and since when, the
          store's fill, the writer (what it runs, a drain's progress and rate, stalled, gone), the instance as the
          writer last met it, waiting, answered, blocked (by reason), dead, and how the last drain ended and when;
          sorted trouble first (unreachable, a writer stalled or gone while writes wait, the instance down, dead,
          blocked, waiting, fine). Keys: j/k or the arrows move, / filters by a host's part or a state word, enter
          opens the device's full screen (a watcher's) and q there comes back, q quits. A device that stops
          answering is shown unreachable within about 7 s; one that cannot be reached is tried again with backoff.
          docs/fleet.md says more.
          """),
      CommandSpec(name: "fill", summary: "fill the copy from the instance (creates a missing store)", id: .fill),
      CommandSpec(name: "catch-up", summary: "catch the copy up from its cursor", id: .catchUp),
      CommandSpec(
        name: "status", summary: "the store, the fill, the instance, the counts, the last drain", id: .status),
      CommandSpec(
        name: "queue", summary: "every write: id, kind, rows, verdict or waiting, reason, streak, last failure",
        id: .queue,
        options: [
          .value("--kind", "KIND", .choice(kinds), repeatable: true, help: "only writes of this kind"),
          .value("--pane", "PANE", .choice(panes), help: "only writes in this pane"),
          .value(
            "--filter", "TERMS",
            help: "as the TUI's / filter: words, reason:R kind:K status:N verdict:V row:GLOB streak:>=N body:T, -term"),
          .value(
            "--sort", "ORDER", .choice(PaneOrder.allCases.map(\.title)),
            help: "as the TUI's s: sent (default), newest, age, streak, reason, kind"),
        ]),
      CommandSpec(
        name: "show", summary: "one write whole, as the detail pane shows it (--json: one JSON value)", id: .show,
        positionals: [
          PositionalSpec(
            "ID", .required, .shortName,
            help: "the write: full ID, the short form shown, or 6+ characters of either end")
        ]),
      CommandSpec(name: "drain", summary: "send the queue once and print the report", id: .drain),
      CommandSpec(
        name: "history", summary: "the drains the store keeps (the last 500), newest first", id: .history,
        options: [
          .value(
            "--since", "TIME",
            help: "only drains begun since TIME: 2026-12-01T02:00:00Z, a day (2026-12-01, UTC), or 30m, 12h, 7d ago"),
          .value("--limit", "N", .integer(1...DrainRecord.kept), help: "at most N drains (default: every one kept)"),
          .flag(
            "--wide", help: "every column: who ran it, each count, the verdicts, writes a second (about 200 columns)"),
        ]),
      CommandSpec(
        name: "log",
        summary: "what happened to the store, newest first: drains, writes taken out, releases, undos, keys, fills",
        id: .log,
        options: [
          .value(
            "--since", "TIME",
            help: "only since TIME: 2026-12-01T02:00:00Z, a day (2026-12-01, UTC), or 30m, 12h, 7d ago"),
          .value("--limit", "N", .integer(1...100_000), help: "at most N lines (default 100)"),
        ],
        discussion: """
          One line an action: a take of 19,996 writes is one line, with its first IDs. Never a key: a key given is
          said, not kept. Kept: the last 500 drains, the archive's departures (30 days, 50 MB), the last 10,000
          other events.
          """),
      CommandSpec(
        name: "release", summary: "send a blocked or dead write again under a fresh key", id: .release,
        positionals: [PositionalSpec("ID", .many, .shortName, help: "the writes to release (all in one transaction)")],
        options: [
          .value("--reason", "REASON", .choice(reasons), help: "release every write blocked for this reason")
        ],
        constraints: [.exactlyOne(["ID", "--reason"])]),
      CommandSpec(
        name: "withdraw", summary: "take a blocked write out, after reading its row from the instance",
        id: .withdraw, positionals: [PositionalSpec("ID", .required, .shortName, help: "the write to withdraw")]),
      CommandSpec(
        name: "discard", summary: "take a refused write, and its content, out of the queue", id: .discard,
        positionals: [PositionalSpec("ID", .required, .shortName, help: "the refused write")]),
      CommandSpec(
        name: "forget", summary: "clear answered writes (all, or the ones named)", id: .forget,
        positionals: [PositionalSpec("ID", .many, .shortName, help: "the answered writes to clear")]),
      CommandSpec(
        name: "take-answered", summary: "clear the answered writes and print them", id: .takeAnswered,
        options: [
          .value(
            "--output", "FILE",
            help: "write them (as JSON) to FILE, a new file, synced to disk before they are cleared")
        ]),
      CommandSpec(
        name: "departed",
        summary: "the writes that left the queue (discarded, withdrawn, forgotten, taken), kept whole",
        id: .departed,
        options: [
          .value("--limit", "N", .integer(1...1_000_000), help: "at most N, newest departure first (default: all kept)")
        ]),
      CommandSpec(
        name: "undo", summary: "put a discarded, forgotten or taken write back exactly as it was", id: .undo,
        positionals: [
          PositionalSpec("ID", .required, .shortName, help: "the departed write (as departed lists it)")
        ],
        discussion: """
          A withdrawn write is never put back (its row was reset and the writes waiting on it refused); nor a
          write when one queued since names the same row, or when a write it waits on left since. The archive
          keeps departures 30 days and 50 MB, the oldest out first (docs/cli.md, "After the fact").
          """),
      CommandSpec(
        name: "report", summary: "one self-contained file for a support ticket (--json: one JSON value)",
        id: .report,
        options: [
          .value("--output", "FILE", help: "write it to FILE, a new file, synced to disk (default: standard output)"),
          .flag("--with-bodies", help: "include the writes' bodies and answers (left out by default)"),
        ],
        discussion: """
          Holds the tool's version, the store (kind, path, schema, size, fill, instance), the writer, the counts per
          pane and per blocked reason, the blocked, dead and refused writes grouped with a count and 3 examples each
          (with their last failure), the last drain's report and the writes departed in the last 7 days. Never a key,
          a credential or a URL's userinfo; at most 100 KB, saying what it left out. Reads the store only: safe on a
          store another process writes.
          """),
      CommandSpec(
        name: "metrics", summary: "the store's figures in the Prometheus text format, for monitoring",
        id: .metrics,
        options: [
          .value(
            "--textfile", "DIR",
            help: "replace DIR/verdicts.prom whole (node_exporter's textfile collector) instead of printing")
        ],
        discussion: """
          Prints the Prometheus text exposition (format 0.0.4) of the store: writes by pane and blocked reason,
          each pane's oldest write, the largest streak, the drains by how they ended, the last drain's end,
          whether a writer is up and whether the instance was reachable when it last looked, and when the text
          was made. Reads the store only, as status does: safe beside a drain. With --textfile, the file is
          written beside its place, synced and renamed over it (0644), so the collector never reads a part;
          run it every minute from a timer (docs/monitoring.md, which names every series and has alert rules).
          """),
      CommandSpec(
        name: "config", summary: "the files the TUI reads at start", id: nil,
        subcommands: [
          CommandSpec(
            name: "check",
            summary: "read the config, keys.conf and the theme the TUI would use; print every problem with file:line",
            id: .configCheck,
            discussion: """
              Reads $XDG_CONFIG_HOME/verdicts/config (else ~/.config/verdicts/config), keys.conf beside it and the
              theme the TUI would use (--theme, VERDICTS_THEME, the config's theme, or default; a name in themes/ or
              a file), as the TUI does at start, and prints each problem as FILE:LINE: what is wrong, the whole list
              (the TUI's status line shows the first). Exit 0 when there is none, 2 when there are problems. Opens no
              store. With --json: {"clean","theme","files","problems":[{"file","line","message"}]}.
              """)
        ]),
      items, edges, tags, metadata, extensions, blobs,
      CommandSpec(
        name: "completion", summary: "print the completion script for a shell (bash, zsh or fish)", id: .completion,
        positionals: [PositionalSpec("SHELL", .required, .choice(shells), help: "the shell")],
        discussion: """
          Install the script once (a new shell then completes verdicts):
            verdicts completion bash > ~/.local/share/bash-completion/completions/verdicts
            verdicts completion zsh > ~/.zfunc/_verdicts    # ~/.zfunc on $fpath before compinit
            verdicts completion fish > ~/.config/fish/completions/verdicts.fish
          The script asks verdicts for the candidates as you type (the commands, their options and values,
          the ids in the store), so it follows this build's commands.
          """),
      CommandSpec(
        name: "hold", summary: "hold the store's writer role (for tests and support)", id: .hold,
        options: [.value("--seconds", "N", .integer(0...86_400), help: "how long to hold it (default 60)")],
        hidden: true),
      CommandSpec(
        name: "__complete", summary: "the candidates for the word under the cursor (the completion scripts ask)",
        id: .complete,
        positionals: [
          PositionalSpec(
            "WORD", .many,
            help: "the words after `verdicts` up to the cursor, the last one the word being completed (maybe empty)")
        ],
        hidden: true,
        discussion: "Called as `verdicts __complete -- WORD...`; prints one candidate a line, and a first line `:file` "
          + "when the shell should complete file names too (docs/cli.md, \"Shell completion\")."),
      CommandSpec(
        name: "__man", summary: "print the man page, docs/verdicts.1, made from this table", id: .manual, hidden: true),
    ])

  /// The shells `completion` writes a script for.
  static let shells = ["bash", "zsh", "fish"]

  static let items = CommandSpec(
    name: "items", summary: "queue item writes, read the copy's items", id: nil,
    subcommands: [
      CommandSpec(
        name: "get", summary: "one item as the copy shows it (its unanswered writes laid over)", id: .itemsGet,
        positionals: [PositionalSpec("ID", .required, .segment, help: "the item")]),
      CommandSpec(
        name: "list", summary: "the copy's items, active ones unless a state is named", id: .itemsList,
        options: [
          .value("--type", "T", .shortName, help: "only items of this type"),
          .value("--state", "S", .choice(WorkingCopy.itemStates), help: "only items in this state (default: active)"),
          .flag("--all-states", help: "items in every state"),
        ]),
      CommandSpec(
        name: "create", summary: "queue an item create", id: .itemsCreate,
        options: [
          .value("--type", "T", .shortName, required: true, help: "the item's type"),
          .value("--properties", "JSON", .jsonObject, required: true, help: "the properties, a JSON object"),
          .value("--id", "ID", .segment, help: "the item's id (default: a minted UUIDv7)"),
          .value("--source", "S", .shortName, help: "the item's source; with --source-id, a natural key"),
          .value(
            "--source-id", "X", .name(maxBytes: ValueKind.sourceIdLimit),
            help: "the natural key's id within the source (with --source)"),
          .value("--tier", "T", .shortName, help: "the item's tier"),
          .value(
            "--tag", "TAG", .segment, repeatable: true,
            help: "a tag, queued as a write of its own after the create (repeat for more)"),
          baseVersion,
        ],
        constraints: [.needs("--source-id", "--source")]),
      CommandSpec(
        name: "attach", summary: "queue a file attached to an item: an upload, a file item, an attached-to edge",
        id: .itemsAttach,
        positionals: [
          PositionalSpec("ID", .required, .segment, help: "the item the file is attached to"),
          PositionalSpec("FILE", .required, help: "the file"),
        ],
        options: fileOptions),
      CommandSpec(
        name: "add", summary: "queue a file as an item of its own: an upload and a file item", id: .itemsAdd,
        positionals: [PositionalSpec("FILE", .required, help: "the file")],
        options: fileOptions + [
          .value(
            "--tag", "TAG", .segment, repeatable: true, help: "a tag, queued as a write of its own (repeat for more)")
        ]),
      CommandSpec(
        name: "update", summary: "queue an item update (conflict=auto)", id: .itemsUpdate,
        positionals: [PositionalSpec("ID", .required, .segment, help: "the item")],
        options: [
          .value("--properties", "JSON", .jsonObject, required: true, help: "the properties to write, a JSON object"),
          baseVersion,
          .flag(
            "--as-read",
            help: "the edit was read at the version named (one the copy has held), or without --version at the copy's"),
          .flag("--replace", help: "replace the properties whole instead of merging them"),
          .value("--type", "T", .shortName, help: "move the item to this type (sent only where it differs)"),
          .value("--tier", "T", .shortName, help: "move the item to this tier (sent only where it differs)"),
        ]),
      CommandSpec(
        name: "delete", summary: "queue an item delete", id: .itemsDelete,
        positionals: [PositionalSpec("ID", .required, .segment, help: "the item")], options: [baseVersion]),
      CommandSpec(
        name: "restore", summary: "queue a restore of a trashed item", id: .itemsRestore,
        positionals: [PositionalSpec("ID", .required, .segment, help: "the item")]),
      CommandSpec(
        name: "transition", summary: "queue a state transition", id: .itemsTransition,
        positionals: [PositionalSpec("ID", .required, .segment, help: "the item")],
        options: [
          .value("--state", "S", .choice(WorkingCopy.itemStates), required: true, help: "the state to move it to")
        ]),
    ])

  /// What a file added or attached is called, typed and where it goes.
  static let fileOptions: [OptionSpec] = [
    .value("--mime", "M", .shortName, help: "the MIME type (default: from the file's extension)"),
    .value("--title", "T", help: "the file item's title (default: the file's name)"),
    .value(
      "--type", "T", .shortName, help: "the file item's type (default: core.file.image for an image, else core.file)"),
    .value("--tier", "T", .shortName, help: "the file item's tier"),
  ]

  static let edges = CommandSpec(
    name: "edges", summary: "queue edge writes, read the copy's edges", id: nil,
    subcommands: [
      CommandSpec(
        name: "list", summary: "the copy's edges from an item", id: .edgesList,
        positionals: [PositionalSpec("ID", .required, .segment, help: "the item the edges start at")]),
      CommandSpec(
        name: "to", summary: "the copy's edges to an item", id: .edgesTo,
        positionals: [PositionalSpec("ID", .required, .segment, help: "the item the edges end at")]),
      CommandSpec(
        name: "create", summary: "queue an edge create", id: .edgesCreate,
        options: [
          .value("--source", "ID", .segment, required: true, help: "the edge's source item"),
          .value("--target", "ID", .segment, required: true, help: "the edge's target item"),
          .value("--type", "T", .shortName, required: true, help: "the edge type"),
          .value("--properties", "JSON", .jsonObject, help: "the edge's properties, a JSON object (default {})"),
          .value("--id", "ID", .segment, help: "the edge's id (default: a minted UUIDv7)"),
        ]),
      CommandSpec(
        name: "update", summary: "queue an edge update", id: .edgesUpdate,
        positionals: [PositionalSpec("ID", .required, .segment, help: "the edge")],
        options: [
          .value("--properties", "JSON", .jsonObject, required: true, help: "the properties to write, a JSON object"),
          baseVersion,
        ]),
      CommandSpec(
        name: "delete", summary: "queue an edge delete", id: .edgesDelete,
        positionals: [PositionalSpec("ID", .required, .segment, help: "the edge")]),
    ])

  static let tags = CommandSpec(
    name: "tags", summary: "queue tag writes", id: nil,
    subcommands: [
      CommandSpec(
        name: "add", summary: "queue a tag added to an item", id: .tagsAdd,
        positionals: [
          PositionalSpec("ID", .required, .segment, help: "the item"),
          PositionalSpec("TAG", .required, .segment, help: "the tag"),
        ]),
      CommandSpec(
        name: "remove", summary: "queue a tag removed from an item", id: .tagsRemove,
        positionals: [
          PositionalSpec("ID", .required, .segment, help: "the item"),
          PositionalSpec("TAG", .required, .segment, help: "the tag"),
        ]),
    ])

  static let metadata = CommandSpec(
    name: "metadata", summary: "queue metadata writes", id: nil,
    subcommands: [
      CommandSpec(
        name: "replace", summary: "queue the item's tags replaced by these (none: cleared)", id: .metadataReplace,
        positionals: [PositionalSpec("ID", .required, .segment, help: "the item")],
        options: [.value("--tag", "T", .shortName, repeatable: true, help: "a tag (repeat for more)")]),
      CommandSpec(
        name: "merge", summary: "queue these tags merged into the item's", id: .metadataMerge,
        positionals: [PositionalSpec("ID", .required, .segment, help: "the item")],
        options: [
          .value("--tag", "T", .shortName, required: true, repeatable: true, help: "a tag (repeat for more)")
        ]),
    ])

  static let extensions = CommandSpec(
    name: "extensions", summary: "queue extension writes", id: nil,
    subcommands: [
      CommandSpec(
        name: "write", summary: "queue an extension written under a namespace", id: .extensionsWrite,
        positionals: [
          PositionalSpec("ID", .required, .segment, help: "the item"),
          PositionalSpec("NS", .required, .segment, help: "the namespace"),
        ],
        options: [.value("--body", "JSON", .jsonObject, required: true, help: "the extension's body, a JSON object")]),
      CommandSpec(
        name: "delete", summary: "queue an extension deleted", id: .extensionsDelete,
        positionals: [
          PositionalSpec("ID", .required, .segment, help: "the item"),
          PositionalSpec("NS", .required, .segment, help: "the namespace"),
        ]),
    ])

  static let blobs = CommandSpec(
    name: "blobs", summary: "queue uploads", id: nil,
    subcommands: [
      CommandSpec(
        name: "put", summary: "queue an upload; the bytes are copied beside the store", id: .blobsPut,
        positionals: [PositionalSpec("FILE", help: "the file to upload")],
        options: [.value("--mime", "M", .shortName, help: "the MIME type (default: from the file's extension)")])
    ])

  /// The parser over this table.
  static let parser = ArgumentParser(root: root, globals: globals)
}
