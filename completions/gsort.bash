# bash completion for gsort: options, their values (key types, backends,
# algorithms, formats) and file names. Installed as
# share/bash-completion/completions/gsort; needs nothing from bash-completion.

_gsort_long_options="--output --record-size --key --format --reverse --unique --stable --check
  --field-separator --numeric-sort --human-numeric-sort --ignore-case --ignore-leading-blanks --zero-terminated
  --dictionary-order --general-numeric-sort --ignore-nonprinting --month-sort --random-sort --random-source
  --version-sort --sort --debug --files0-from --compress-program --buffer-size
  --merge --batch-size --memory --temporary-directory --parallel --backend --algorithm --exchange --device
  --gpu-memory --compress-temp --compress-temp= --spill-streams --page-cache --compress-output --compress-output= --decompress --decompress=
  --verify --no-verify --no-space-check --fsync --progress --no-progress --stats --trace --output-parts --to-terminal --verbose
  --help --version"
_gsort_short_options="-o -k -r -u -s -c -C -m -S -T -v -h -t -n -f -b -z -d -g -i -M -R -V"
_gsort_key_types="u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 u16be u32be u64be i16be i32be i64be f32be f64be"

# Candidates for the value of a --key: OFFSET:TYPE, then OFFSET:TYPE:desc.
# OFFSET:LENGTH (a byte count) is left to the user.
_gsort_key_values() {
  local value=$1 t
  if [[ $value =~ ^[0-9]+:[a-z0-9]+: ]]; then
    printf '%s\n' "${BASH_REMATCH[0]}desc"
  elif [[ $value =~ ^[0-9]+: ]]; then
    for t in $_gsort_key_types; do printf '%s\n' "${BASH_REMATCH[0]}$t"; done
  fi
}

# Candidates for the value of OPTION, one a line, or nothing for a
# free-form value.
_gsort_option_values() {
  local option=$1 value=$2
  case $option in
    -o|--output|--stats|--trace|--files0-from|--random-source) compgen -f -- "$value" ;;
    --sort) printf '%s\n' general-numeric human-numeric month numeric random version ;;
    -T|--temporary-directory) compgen -d -- "$value" ;;
    -k|--key) _gsort_key_values "$value" ;;
    --format) printf '%s\n' gensort ;;
    --backend) printf '%s\n' auto gpu cpu hybrid ;;
    --algorithm) printf '%s\n' auto cub radix merge ;;
    --exchange) printf '%s\n' auto shm mpi nccl ;;
    --compress-temp) printf '%s\n' auto on off ;;
    --compress-program) compgen -c -- "$value" ;;
    --page-cache) printf '%s\n' keep drop ;;
    --decompress) printf '%s\n' auto no ;;
  esac
}

# Whether OPTION takes the next word as its value.
_gsort_takes_value() {
  case $1 in
    -o|--output|--record-size|-k|--key|--format|-S|--memory|--buffer-size|--files0-from|-T|--temporary-directory|--parallel|--batch-size| \
    --backend|--algorithm|--exchange|--device|--gpu-memory|--spill-streams|--page-cache|--stats|--trace|--compress-program) return 0 ;;
  esac
  return 1
}

_gsort() {
  # The word under the cursor as the user typed it: bash splits words at
  # ':' and '=' (COMP_WORDBREAKS), which a key like 8:u64:desc contains.
  local line=${COMP_LINE:0:COMP_POINT}
  local arg=${line##*[[:space:]]}
  local before=${line%"$arg"}
  local -a words
  read -r -a words <<< "$before"
  local prev=${words[${#words[@]}-1]}
  local -a candidates=()
  local candidate option value prefix=""

  if [[ $arg == --*=* ]]; then
    option=${arg%%=*} value=${arg#*=} prefix="$option="
  elif [[ ${#words[@]} -gt 1 ]] && _gsort_takes_value "$prev"; then
    option=$prev value=$arg
  elif [[ $arg == -* ]]; then
    option="" value=""
    for candidate in $_gsort_long_options $_gsort_short_options; do
      [[ $candidate == "$arg"* ]] && candidates+=("$candidate")
    done
  else
    option="" value=""
    compopt -o filenames 2>/dev/null || true
    mapfile -t candidates < <(compgen -f -- "$arg")
  fi
  if [[ -n $option ]]; then
    case $option in
      -o|--output|--stats|--trace|-T|--temporary-directory) compopt -o filenames 2>/dev/null || true ;;
    esac
    while IFS= read -r candidate; do
      [[ $candidate == "$value"* ]] && candidates+=("$prefix$candidate")
    done < <(_gsort_option_values "$option" "$value")
  fi

  # Replies replace only the part of the word after bash's last word break.
  local cur=${COMP_WORDS[COMP_CWORD]}
  local typed_before=""
  [[ $arg == *"$cur" ]] && typed_before=${arg%"$cur"}
  COMPREPLY=()
  for candidate in "${candidates[@]}"; do
    COMPREPLY+=("${candidate#"$typed_before"}")
  done
  # An option that ends in '=' waits for its value: no space after it.
  if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]]; then compopt -o nospace 2>/dev/null || true; fi
  return 0
}

complete -F _gsort gsort
