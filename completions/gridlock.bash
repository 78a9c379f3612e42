# bash completion for gridlock (installed as share/bash-completion/completions/gridlock).
# Commands and each command's options are read from the binary's own --help, so they are
# always those of the gridlock being completed; --format values from its help too; --rules
# offers the packs shipped beside it (share/gridlock/rules) and .json files.

# The commands: the "Commands:" section of `gridlock --help`.
_gridlock_commands() {
  "$1" --help 2>/dev/null | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'
}

# The options of command $2: the first word of each option line of its --help (-j,--jobs: both).
_gridlock_options() {
  "$1" "$2" --help 2>/dev/null | sed -n 's/^  \(-[^ ]*\).*/\1/p' | tr ',' '\n'
}

# The values --format takes for command $2: CLI11 prints them as TEXT:{text,json,sarif,github}.
_gridlock_formats() {
  local line
  line=$("$1" "$2" --help 2>/dev/null | sed -n 's/^  --format TEXT:{\([^}]*\)}.*/\1/p')
  [ -n "$line" ] || line=$("$1" "$2" --help 2>/dev/null |
    sed -n 's/^  --format .*Report format: \(.*\)$/\1/p' | sed 's/ or /,/; s/, */,/g')
  printf '%s\n' "${line//,/ }"
}

# The packs shipped beside the binary, by name.
_gridlock_packs() {
  local bin dir f
  bin=$(command -v -- "$1") || return
  bin=$(readlink -f -- "$bin")
  dir=${bin%/*}/../share/gridlock/rules
  for f in "$dir"/*.json; do
    [ -f "$f" ] || continue
    f=${f##*/}
    printf '%s\n' "${f%.json}"
  done
}

_gridlock() {
  local bin=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local cmd=${COMP_WORDS[1]} i
  COMPREPLY=()
  # After --: compiler arguments.
  for ((i = 2; i < COMP_CWORD; i++)); do
    if [ "${COMP_WORDS[i]}" = -- ]; then
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return
    fi
  done
  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "$(_gridlock_commands "$bin") --help --version" -- "$cur")
    return
  fi
  case $prev in
    --format)
      mapfile -t COMPREPLY < <(compgen -W "$(_gridlock_formats "$bin" "$cmd")" -- "$cur")
      return ;;
    --color)
      mapfile -t COMPREPLY < <(compgen -W "auto always never" -- "$cur")
      return ;;
    --rules)
      mapfile -t COMPREPLY < <(compgen -W "$(_gridlock_packs "$bin")" -- "$cur"
                               compgen -f -X '!*.json' -- "$cur"
                               compgen -d -- "$cur")
      return ;;
    -p | --root | --cache-dir | --extra-db | --resource-dir | --cuda-path | --results-dir | \
      --baseline-results | --change-results | --repo)
      mapfile -t COMPREPLY < <(compgen -d -- "$cur")
      return ;;
    -o | --output | --baseline | --change | --config | --export-fixes | --facts-out)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return ;;
  esac
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_gridlock_options "$bin" "$cmd") --" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}
complete -o filenames -F _gridlock gridlock
