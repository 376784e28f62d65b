#!/usr/bin/env bash
# check_fish_completion.sh COMPLETION_FILE: what fish offers for a few
# lines, with gsort's completion loaded. Skips (77) without fish.
set -uo pipefail
command -v fish >/dev/null || { echo "fish is not installed: skipped"; exit 77; }
completion=$1
# What fish offers after a line, its candidates without their descriptions.
replies() { fish --no-config -c "source '$completion'; complete -C '$1'" | cut -f1 | sort; }
. "$(dirname "$0")/expect_completion.sh"

expect "gsort --ke" "--key"
expect "gsort --key 8:u6" "8:u64 8:u64be"
expect "gsort -k 8:u6" "8:u64 8:u64be"
expect "gsort --key 8:u64:" "8:u64:desc"
expect "gsort --backend " "auto cpu gpu hybrid"
[ "$failures" -eq 0 ]
