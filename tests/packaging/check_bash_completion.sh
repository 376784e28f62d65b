#!/usr/bin/env bash
# check_bash_completion.sh COMPLETION_FILE|--installed
# What gsort's bash completion offers for a few lines, against what it must.
set -uo pipefail
here=$(dirname "$0")
completion=$1
# The replies for <TAB> after LINE, one per line, must
# be exactly WANTED (words separated by blanks; bash inserts each reply in
# place of the part of the word after its last ':' or '=').
replies() { "$here/bash_complete.sh" "$completion" "$1"; }
. "$here/expect_completion.sh"

expect "gsort --ke" "--key"
expect "gsort --rev" "--reverse"
expect "gsort --key 8:u6" "u64 u64be"
expect "gsort -k 8:u6" "u64 u64be"
expect "gsort --stab" "--stable"
expect "gsort --to" "--to-terminal"
expect "gsort --key=0:f" "f32 f64 f32be f64be"
expect "gsort --key 8:i64:" ":desc"
expect "gsort --backend " "auto gpu cpu hybrid"
expect "gsort --algorithm=c" "cub"
expect "gsort --format " "gensort"
expect "gsort --record-size " ""

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
touch "$work/input.bin" "$work/other.dat"
expect "gsort $work/inp" "$work/input.bin"
expect "gsort -o $work/oth" "$work/other.dat"
[ "$failures" -eq 0 ]
