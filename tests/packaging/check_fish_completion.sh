#!/usr/bin/env bash
# check_fish_completion.sh COMPLETION_FILE: what fish offers for a few
# lines, with gsort's completion loaded. Skips (77) without fish.
set -uo pipefail
command -v fish >/dev/null || { echo "fish is not installed: skipped"; exit 77; }
completion=$1
failures=0

expect() {
  local line=$1 wanted=$2 got
  got=$(fish --no-config -c "source '$completion'; complete -C '$line'" | cut -f1 | sort | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" != "$wanted" ]; then
    echo "FAIL: '$line<TAB>' gave '$got', wanted '$wanted'" >&2
    failures=$((failures + 1))
  else
    echo "ok: '$line<TAB>' -> $got"
  fi
}

expect "gsort --ke" "--key"
expect "gsort --key 8:u6" "8:u64 8:u64be"
expect "gsort --key 8:u64:" "8:u64:desc"
expect "gsort --backend " "auto cpu gpu hybrid"
[ "$failures" -eq 0 ]
