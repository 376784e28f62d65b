# Sourced by the completion checks: expect LINE WANTED compares what
# `replies LINE` (defined by the sourcing script: the shell's completions
# after LINE, one per line) gives with WANTED (words separated by blanks),
# reports it, and counts failures in $failures.
failures=0

expect() {
  local line=$1 wanted=$2 got
  got=$(replies "$line" | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" != "$wanted" ]; then
    echo "FAIL: '$line<TAB>' gave '$got', wanted '$wanted'" >&2
    failures=$((failures + 1))
  else
    echo "ok: '$line<TAB>' -> $got"
  fi
}
