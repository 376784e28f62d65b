#!/usr/bin/env bash
# check_options_documented.sh PROGRAM FILE...
# Fails unless every long option that `PROGRAM --help` prints appears in each
# FILE: a man page (*.1, where '-' is written '\-'), a fish completion
# (*.fish, where --key is "-l key"), or any other completion (as --key).
set -euo pipefail
program=$1
shift
options=$("$program" --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
[ -n "$options" ] || { echo "no long options in '$program --help'" >&2; exit 1; }

missing=0
for file in "$@"; do
  case $file in
    *.1) text=$(sed 's/\\-/-/g' "$file") ;;
    *) text=$(cat "$file") ;;
  esac
  for option in $options; do
    case $file in
      *.fish) pattern="-l ${option#--}( |$)" ;;
      *) pattern="(^|[^a-z-])$option([^a-z0-9-]|$)" ;;
    esac
    if ! grep -qE -- "$pattern" <<< "$text"; then
      echo "$file: no $option (from '$(basename "$program") --help')" >&2
      missing=1
    fi
  done
done
[ "$missing" -eq 0 ] && echo "$(wc -w <<< "$options") options found in $# file(s)"
exit "$missing"
