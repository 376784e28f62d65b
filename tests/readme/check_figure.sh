#!/usr/bin/env bash
# check_figure.sh README CSV SVG: the README shows its comparison chart (issue
# 32: the charts of docs/img/ were in no page a user reads), every image it
# links exists, and the chart, its data and the README's table agree: each
# figure of docs/data/comparison.csv is a label in the SVG that
# scripts/plot_benchmarks.py drew from it, and the README's table shows it
# (to the table's decimals); a tool without a figure (GNU sort: not measured,
# say) has its note in both, never a number.
set -euo pipefail
readme=$1 csv=$2 svg=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
root=$(dirname "$readme")
grep -qF "]($(realpath --relative-to="$root" "$svg"))" "$readme" || fail "$readme does not show $svg"
while read -r image; do
  [ -f "$root/$image" ] || fail "$readme shows $image, which does not exist"
done < <(grep -o '!\[[^]]*\]([^)]*)' "$readme" | sed 's/.*](\(.*\))/\1/' | grep -v '^https\?:')

# The number in CELL that shows VALUE, to CELL's own decimals, or nothing.
shows() {
  local value=$1 cell=$2 n decimals
  for n in $(grep -oE '[0-9]+(\.[0-9]+)?' <<< "$cell"); do
    decimals=0
    if [[ $n == *.* ]]; then decimals=${n#*.}; decimals=${#decimals}; fi
    if [ "$(printf "%.${decimals}f" "$value")" = "$n" ]; then return 0; fi
  done
  return 1
}

rows=0
while IFS= read -r line; do
  [[ $line =~ ^\"([^\"]*)\",([^,]*),([^,]*),([^,]*),(.*)$ ]] || continue
  case=${BASH_REMATCH[1]} tool=${BASH_REMATCH[2]} value=${BASH_REMATCH[3]} note=${BASH_REMATCH[5]}
  table_row=$(grep -F "| $case |" "$readme") || fail "the README's table has no row '$case'"
  IFS='|' read -ra cells <<< "$table_row"
  case $tool in
    cp) cell=${cells[2]} ;;
    "GNU sort") cell=${cells[3]} ;;
    gsort*) cell=${cells[4]} ;;
    sortbin) cell=${cells[5]} ;;
    *) fail "$csv: unknown tool '$tool'" ;;
  esac
  if [ -n "$value" ]; then
    grep -qF ">${value}x<" "$svg" || fail "$svg has no label ${value}x ($case, $tool): draw it again"
    shows "$value" "$cell" || fail "the README shows '$cell' for $tool in '$case'; $csv has ${value}x"
  else
    grep -qF "$tool: $note" "$svg" || fail "$svg does not say '$tool: $note' ($case): draw it again"
    [[ $cell == *"$note"* ]] || fail "the README shows '$cell' for $tool in '$case'; $csv says '$note'"
  fi
  rows=$((rows + 1))
done < "$csv"
[ "$rows" -gt 0 ] || fail "$csv has no rows"
echo "check_figure: the README shows $(basename "$svg"); its $rows figures agree with $(basename "$csv") and the table"
