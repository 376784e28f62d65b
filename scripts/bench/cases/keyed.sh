# Keyed line sorts over data shapes gsort-gen does not write (issue 53):
# few distinct leading keys, signed decimals, a long common prefix, too
# many words to rank, duplicate keys (scripts/bench/csv_shapes.py), each
# KEYED_GB gigabytes (default 1), sorted by -t, -k2,2 -k1,1n (and the few
# shape also by -t, -k2,2 -k3,3n -k1,1): cp, GNU sort and gsort, outputs
# compared byte for byte (lines.sh's lines_table).
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case keyed "keyed CSV sorts (-t, -k2,2 -k1,1n) over the shapes of scripts/bench/csv_shapes.py (KEYED_SHAPES, default few dec prefix many dups; KEYED_GB each, default 1), against GNU sort, outputs identical"

case_keyed() {
  local mem=${LINES_MEM:-50%} CHECK=${CHECK:-all} bytes shape
  bytes=$(awk -v g="${KEYED_GB:-1}" 'BEGIN { printf "%d", g * 1e9 }')
  mkdir -p "$run_dir/tmp"
  for shape in ${KEYED_SHAPES:-few dec prefix many dups}; do
    data_shape "$shape" "$bytes"
    lines_table "keyed-$shape" "${KEYED_GB:-1} GB of CSV ($shape), -t, -k2,2 -k1,1n" "$data" "$mem" -t, -k2,2 -k1,1n
    if [[ $shape == few ]]; then
      lines_table keyed-few-3 "${KEYED_GB:-1} GB of CSV (few), -t, -k2,2 -k3,3n -k1,1" "$data" "$mem" -t, -k2,2 -k3,3n -k1,1
    fi
  done
}
