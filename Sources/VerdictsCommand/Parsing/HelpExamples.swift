/// One or two examples per command, shown at the end of its help.
enum HelpExamples {
  /// Examples by command path.
  static let byPath: [[String]: [String]] = [
    []: [
      "verdicts demo                      # the tour on a scripted instance",
      "verdicts --store ~/device.store     # the TUI on a store",
    ],
    ["tui"]: ["verdicts tui --store ~/device.store"],
    ["watch"]: ["verdicts watch                     # read-only TUI", "verdicts watch --plain | tee drain.log"],
    ["demo"]: [
      "verdicts demo", "verdicts demo --plain --seconds 5",
      "verdicts demo --store /tmp/tour.store   # then, elsewhere: verdicts watch --store /tmp/tour.store",
    ],
    ["instance"]: ["verdicts instance --port 8421 --scenario tour"],
    ["fill"]: ["verdicts fill --url https://marfa.example --key \"$KEY\""],
    ["catch-up"]: ["verdicts catch-up"],
    ["status"]: ["verdicts status", "verdicts status --json | jq .counts"],
    ["queue"]: ["verdicts queue --pane blocked", "verdicts queue --filter 'reason:failing_alone streak:>=2'"],
    ["show"]: ["verdicts show …43da8578", "verdicts show 43da8578 --json"],
    ["drain"]: ["verdicts drain", "verdicts drain --json | jq .verdicts"],
    ["history"]: ["verdicts history --since 12h", "verdicts history --limit 20 --json | jq '.[].ended'"],
    ["release"]: ["verdicts release …43da8578", "verdicts release --reason key_spent"],
    ["withdraw"]: ["verdicts withdraw 43da8578"],
    ["discard"]: ["verdicts discard …43da8578"],
    ["forget"]: [
      "verdicts forget                    # every answered write that may go", "verdicts forget 43da8578 5d73c5e8",
    ],
    ["take-answered"]: [
      "verdicts take-answered --output answered.json   # a new file, synced before they are cleared",
      "verdicts take-answered --json | jq -c '.[]'",
    ],
    ["departed"]: ["verdicts departed", "verdicts departed --json | jq '.[0].departed'"],
    ["undo"]: ["verdicts undo …43da8578             # put back a discarded or forgotten write"],
    ["report"]: [
      "verdicts report --output ticket.txt   # a new file, synced; no key, no bodies",
      "verdicts report --json --with-bodies > ticket.json",
    ],
    ["metrics"]: [
      "verdicts metrics | promtool check metrics",
      "verdicts metrics --textfile /var/lib/prometheus/node-exporter   # every minute, from a timer",
    ],
    ["fleet"]: [
      "verdicts fleet shop-1 shop-2:/var/lib/verdicts/queue.store",
      "verdicts fleet --ssh-config-hosts 'shop-*'          # ~/.ssh/config's Host names",
      "verdicts fleet --plain --once --hosts fleet.txt     # one line a device, trouble first",
    ],
    ["items", "create"]: ["verdicts items create --type note --properties '{\"title\":\"Groceries\"}'"],
    ["completion"]: [
      "verdicts completion bash > ~/.local/share/bash-completion/completions/verdicts",
      "verdicts completion fish > ~/.config/fish/completions/verdicts.fish",
    ],
    ["items", "update"]: ["verdicts items update note-1 --properties '{\"title\":\"Shopping\"}' --as-read"],
  ]
}
