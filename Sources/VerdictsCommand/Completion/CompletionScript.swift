/// The scripts `verdicts completion bash|zsh|fish` prints: thin, each asks `verdicts __complete`
/// for the candidates, so they cannot fall behind the command table.
enum CompletionScript {
  /// The script for `shell` (one of ``CommandTable/shells``), or nil.
  static func text(for shell: String) -> String? {
    switch shell {
    case "bash": return bash
    case "zsh": return zsh
    case "fish": return fish
    default: return nil
    }
  }

  static let bash = #"""
    # bash completion for verdicts, as `verdicts completion bash` prints it.
    # Install: verdicts completion bash > ~/.local/share/bash-completion/completions/verdicts
    # (or, in ~/.bashrc: source <(verdicts completion bash)).
    # The candidates come from verdicts itself (`verdicts __complete -- WORD...`, docs/cli.md).
    _verdicts() {
      local cur line files=0 quote=1
      # $2 is the word readline completes: after `=` in `--pane=bl`, only `bl`.
      if (( $# >= 2 )); then cur=$2; else cur=${COMP_WORDS[COMP_CWORD]-}; fi
      local -a words=("${COMP_WORDS[@]:1:COMP_CWORD-1}") found=()
      COMPREPLY=()
      while IFS= read -r line; do
        if [[ $line == :file ]]; then
          files=1
        elif [[ -n $line ]]; then
          found+=("$line")
        fi
      done < <(command "${COMP_WORDS[0]}" __complete -- "${words[@]}" "$cur" 2>/dev/null)
      if (( files )); then
        # readline quotes what it puts in when it completes file names.
        compopt -o filenames 2>/dev/null && quote=0
        while IFS= read -r line; do found+=("$line"); done < <(compgen -f -- "$cur")
      fi
      # Else each candidate is quoted here: a write id the store holds (`$(...)`, a backtick, `;`,
      # a space) is put in as the word it is, never as code the line would run. After an opening
      # quote readline puts the candidate inside it (and closes it): quoted for that quote.
      local open=
      case ${COMP_WORDS[COMP_CWORD]-}$cur in \'*) open=q ;; \"*) open=qq ;; esac
      for line in "${found[@]}"; do
        if (( quote )); then
          case $open in
            q) line=${line//"'"/"'\\''"} ;;
            qq) line=${line//'\'/'\\'}; line=${line//'$'/'\$'}; line=${line//'`'/'\`'}; line=${line//'"'/'\"'} ;;
            *) printf -v line '%q' "$line" ;;
          esac
        fi
        COMPREPLY+=("$line")
      done
      return 0
    }
    complete -F _verdicts verdicts

    """#

  static let zsh = #"""
    #compdef verdicts
    # zsh completion for verdicts, as `verdicts completion zsh` prints it.
    # Install: verdicts completion zsh > ~/.zfunc/_verdicts, with fpath=(~/.zfunc $fpath) in
    # ~/.zshrc before compinit (or, after compinit: source <(verdicts completion zsh)).
    # The candidates come from verdicts itself (`verdicts __complete -- WORD...`, docs/cli.md).
    _verdicts() {
      local -a lines candidates
      local line current=${PREFIX-${words[CURRENT]}} files=0 ret=1
      lines=("${(@f)$(command "${words[1]}" __complete -- "${(@)words[2,CURRENT-1]}" "$current" 2>/dev/null)}")
      for line in "${lines[@]}"; do
        if [[ $line == :file ]]; then
          files=1
        elif [[ -n $line ]]; then
          candidates+=("$line")
        fi
      done
      (( ${#candidates} )) && compadd -a candidates && ret=0
      (( files )) && _files && ret=0
      return ret
    }
    if [[ ${funcstack[1]-} == _verdicts ]]; then
      _verdicts "$@"
    else
      compdef _verdicts verdicts
    fi

    """#

  static let fish = #"""
    # fish completion for verdicts, as `verdicts completion fish` prints it.
    # Install: verdicts completion fish > ~/.config/fish/completions/verdicts.fish
    # The candidates come from verdicts itself (`verdicts __complete -- WORD...`, docs/cli.md).
    function __verdicts_complete
        set -l tokens (commandline -opc)
        set -l current (commandline -ct)
        for line in (command $tokens[1] __complete -- $tokens[2..-1] "$current" 2>/dev/null)
            if test "$line" = ":file"
                __fish_complete_path "$current"
            else if test -n "$line"
                printf '%s\n' $line
            end
        end
    end
    complete -c verdicts -f -a '(__verdicts_complete)'

    """#
}
