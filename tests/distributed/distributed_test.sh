#!/usr/bin/env bash
# The distributed sort's tests: distributed_test.sh GSORT GSORT_GEN
# GSORT_TEST_HOOKS CASE. Each case runs `mpirun -np N gsort` for N = 1..4 on
# the CPU backend and compares with single-process gsort (the same binary,
# no mpirun, CPU backend) byte for byte, or checks a refusal or a failure;
# after every run, no temporary file may be left in -T's directory or next
# to the output. Where a case injects a fault (GSORT_TEST_* variables), the
# ranks run GSORT_TEST_HOOKS (tests/support/fault_hooks.h): gsort reads none.
# On GPU machines GSORT_DIST_BACKEND=gpu and GSORT_DIST_EXCHANGE=nccl run
# the comparisons' ranks with those instead (ranks share GPUs in turn), and
# GSORT_DIST_MAX_RANKS (at least 2) caps every case's rank counts (NCCL wants
# a GPU per rank): larger counts of a list are left out, and a check that
# needs several ranks runs with min(N, GSORT_DIST_MAX_RANKS).
set -euo pipefail
gsort=$1 gen_bin=$2 hooks=$3 case=$4
mpirun_bin=${GSORT_MPIRUN:-mpirun}
rank_opts=(--backend "${GSORT_DIST_BACKEND:-cpu}")
[ -z "${GSORT_DIST_EXCHANGE:-}" ] || rank_opts+=(--exchange "$GSORT_DIST_EXCHANGE")
max_ranks=${GSORT_DIST_MAX_RANKS:-4}
[ "$max_ranks" -ge 2 ] || { echo "GSORT_DIST_MAX_RANKS must be at least 2" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/out"
# As root (CI containers) Open MPI wants both the flag and these; vader
# (shared memory) without single-copy works where ptrace is restricted.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi_flags=(--oversubscribe --allow-run-as-root --mca btl self,vader --mca btl_vader_single_copy_mechanism none)
# The rank counts a check runs with: np="2 4" same ... (default 1 to 4).
# Each mpirun costs about a second here, so cases pick a few.

fail() { echo "FAIL ($case): $*" >&2; exit 1; }
# ranks N: N, or GSORT_DIST_MAX_RANKS where that is smaller.
ranks() { if [ "$1" -gt "$max_ranks" ]; then echo "$max_ranks"; else echo "$1"; fi; }
mpi() {
  local n=$1 env=()
  shift
  [ -z "${GSORT_TEST_RECEIVE_IN_FILES:-}" ] || env=(-x GSORT_TEST_RECEIVE_IN_FILES)
  [ -z "${GSORT_TEST_SHM_SLOT_RECORDS:-}" ] || env+=(-x GSORT_TEST_SHM_SLOT_RECORDS)
  [ -z "${GSORT_TEST_OUTPUT_PWRITE:-}" ] || env+=(-x GSORT_TEST_OUTPUT_PWRITE)
  "$mpirun_bin" "${mpi_flags[@]}" "${env[@]}" -np "$n" "$@"
}
gen() { "$gen_bin" "$@"; }
# The binary the ranks of a comparison run: the hooks' where a variable asks for one.
ranks_gsort() {
  if [ -n "${GSORT_TEST_RECEIVE_IN_FILES:-}${GSORT_TEST_SHM_SLOT_RECORDS:-}${GSORT_TEST_OUTPUT_PWRITE:-}" ]; then
    echo "$hooks"
  else
    echo "$gsort"
  fi
}

no_leftovers() {
  local left
  left=$( (find "$work/tmp" -mindepth 1; find "$work/out" -mindepth 1 -name '.*') | head -5)
  [ -z "$left" ] || fail "temporary files left: $left"
}

# same ARGS... (inputs and options, no -o): -np $np against one process.
same() {
  "$gsort" --backend cpu -T "$work/tmp" "$@" -o "$work/ref"
  for n in ${np:-1 2 3 4}; do
    [ "$n" -le "$max_ranks" ] || continue
    mpi "$n" "$(ranks_gsort)" "${rank_opts[@]}" -T "$work/tmp" "$@" -o "$work/out/sorted" || fail "np $n failed: $*"
    cmp -s "$work/ref" "$work/out/sorted" || fail "np $n differs from one process: $*"
    no_leftovers
  done
}

case_keys() {
  gen -n 20000 --record-size 16 --key 0:u32 -d few -o "$work/u32"
  same --record-size 16 --key 0:u32 "$work/u32"
  gen -n 20000 --record-size 24 --key 8:i64 -o "$work/i64"
  np=3 same --record-size 24 --key 8:i64 "$work/i64"
  gen -n 20000 --record-size 16 --key 0:f64 -o "$work/f64"  # NaN, -0.0, inf among them
  np="2 4" same --record-size 16 --key 0:f64 "$work/f64"
  gen -n 20000 --record-size 32 --key 4:6 -d lowentropy -o "$work/bytes"
  np=3 same --record-size 32 --key 4:6 "$work/bytes"
  gen -n 20000 --record-size 8 -d few -o "$work/whole"
  np=2 same --record-size 8 "$work/whole"
  gen -n 10000 --format gensort -o "$work/gensort"
  np=4 same --format gensort "$work/gensort"
}

case_reverse() {
  gen -n 20000 --record-size 16 --key 0:u32 -d few -o "$work/u32"
  np="2 3" same -r --record-size 16 --key 0:u32 "$work/u32"
  gen -n 20000 --record-size 16 --key 0:f64 -o "$work/f64"
  np=4 same -r --record-size 16 --key 0:f64 "$work/f64"
  gen -n 20000 --record-size 24 --key 0:u16 --key 8:i32:desc -d few -o "$work/two"
  np=3 same --record-size 24 --key 0:u16 --key 8:i32:desc "$work/two"
  np="2 4" same -r --record-size 24 --key 0:u16 --key 8:i32:desc "$work/two"
}

# -u: duplicates straddle rank boundaries when keys are few or all equal.
case_unique() {
  gen -n 20000 --record-size 16 --key 0:u32 -d few --distinct 5 -o "$work/few"
  np="2 3 4" same -u --record-size 16 --key 0:u32 "$work/few"
  np=3 same -u -r --record-size 16 --key 0:u32 "$work/few"
  gen -n 5000 --record-size 16 --key 0:u32 -d equal -o "$work/equal"
  np="2 4" same -u --record-size 16 --key 0:u32 "$work/equal"
  gen -n 20000 --record-size 16 --key 0:2 -d lowentropy -o "$work/low"
  np=3 same -u --record-size 16 --key 0:2 "$work/low"
}

case_skew() {
  gen -n 20000 --record-size 16 --key 0:u32 -d equal -o "$work/equal"
  np="3 4" same --record-size 16 --key 0:u32 "$work/equal"
  gen -n 20000 --record-size 16 --key 0:u64 -d lowentropy -o "$work/low"
  np=2 same --record-size 16 --key 0:u64 "$work/low"
  gen -n 20000 --record-size 16 --key 0:u64 -d sorted -o "$work/sorted"
  np=3 same -r --record-size 16 --key 0:u64 "$work/sorted"
  gen -n 20000 --record-size 16 --key 0:u64 -d reverse -o "$work/reverse"
  np=4 same --record-size 16 --key 0:u64 "$work/reverse"
}

# Fewer records than ranks: some ranks have nothing to read or to write.
case_tiny() {
  for records in 0 1 2 3; do
    gen -n "$records" --record-size 12 --key 0:u32 -d few -o "$work/tiny$records"
    np=4 same --record-size 12 --key 0:u32 "$work/tiny$records"
    np=4 same -u --record-size 12 --key 0:u32 "$work/tiny$records"
  done
  np=2 same --record-size 12 --key 0:u32 "$work/tiny1"
  np=3 same -u --record-size 12 --key 0:u32 "$work/tiny2"
}

case_inputs() {
  gen -n 7001 --record-size 16 --key 0:u32 -d few --seed 1 -o "$work/a"
  gen -n 0 --record-size 16 --key 0:u32 -o "$work/b"
  gen -n 13 --record-size 16 --key 0:u32 -d few --seed 2 -o "$work/c"
  gen -n 9000 --record-size 16 --key 0:u32 -d few --seed 3 -o "$work/d"
  np="3 4" same --record-size 16 --key 0:u32 "$work/a" "$work/b" "$work/c" "$work/d"
  np=2 same -u --record-size 16 --key 0:u32 "$work/d" "$work/c" "$work/b" "$work/a"
}

# --output-parts: the parts concatenated are the single-process output.
parts_same() {
  "$gsort" --backend cpu -T "$work/tmp" "$@" -o "$work/ref"
  for n in ${np:-1 2 3 4}; do
    [ "$n" -le "$max_ranks" ] || continue
    mpi "$n" "$(ranks_gsort)" "${rank_opts[@]}" -T "$work/tmp" "$@" --output-parts -o "$work/out/parts" || fail "np $n failed"
    [ "$(ls "$work/out/parts" | wc -l)" = "$n" ] || fail "np $n: $(ls "$work/out/parts" | wc -l) parts"
    cat "$work/out/parts"/part-* | cmp -s "$work/ref" - || fail "np $n: parts differ from one process: $*"
    [ -z "$(find "$work/out/parts" -name '.*')" ] || fail "np $n: hidden files left in the parts directory"
    no_leftovers
  done
}

case_parts() {
  gen -n 20000 --record-size 16 --key 0:u32 -d few -o "$work/few"
  parts_same --record-size 16 --key 0:u32 "$work/few"
  np="2 3" parts_same -u --record-size 16 --key 0:u32 "$work/few"  # parts lose a straddling duplicate
  # Fewer ranks than last time: the stale parts go (the count is checked).
  np="4 2" parts_same --record-size 16 --key 0:u32 "$work/few"
  # One process writes part-00000 too.
  "$gsort" --record-size 16 --key 0:u32 "$work/few" --output-parts -o "$work/out/single"
  cmp -s "$work/ref" "$work/out/single/part-00000" || fail "one process: part-00000 differs"
  # All parts or none: a rank that cannot place its part (a directory in
  # the way) leaves the old set whole, stale parts and modes included; the
  # next run replaces it, keeping a replaced part's mode, and removes every
  # other part, past a gap too.
  local dir=$work/out/set n
  n=$(ranks 2)
  mkdir -p "$dir"
  echo old0 >"$dir/part-00000" && chmod 640 "$dir/part-00000"
  mkdir "$dir/part-00001"
  echo stale >"$dir/part-00009"
  if mpi "$n" "$gsort" "${rank_opts[@]}" -T "$work/tmp" --record-size 16 --key 0:u32 "$work/few" --output-parts \
    -o "$dir" 2>"$work/err"; then fail "a part that cannot be placed: exit 0"; fi
  [ "$(cat "$dir/part-00000")" = old0 ] || fail "the old part-00000 was not kept"
  [ -f "$dir/part-00009" ] && [ -d "$dir/part-00001" ] || fail "the old set changed: $(ls "$dir")"
  rmdir "$dir/part-00001"
  mpi "$n" "$gsort" "${rank_opts[@]}" -T "$work/tmp" --record-size 16 --key 0:u32 "$work/few" --output-parts \
    -o "$dir" || fail "np $n into the old set failed"
  [ "$(ls "$dir" | tr '\n' ' ')" = "$(for ((i = 0; i < n; ++i)); do printf 'part-%05d ' "$i"; done)" ] ||
    fail "stale parts left: $(ls -a "$dir")"
  [ "$(stat -c %a "$dir/part-00000")" = 640 ] || fail "the replaced part's mode was not kept"
  cat "$dir"/part-* | cmp -s "$work/ref" - || fail "the new set differs from one process"
  # A failed run makes no new directory.
  mpi "$n" "$gsort" "${rank_opts[@]}" -T "$work/tmp" --record-size 16 "$work/missing" --output-parts \
    -o "$work/out/new" 2>/dev/null && fail "a missing input: exit 0"
  [ ! -e "$work/out/new" ] || fail "a failed run left a new directory"
  no_leftovers
}

# A small -S: several exchange rounds and several spilled runs per rank.
case_spill() {
  gen -n 200000 --record-size 16 --key 0:u64 -o "$work/big"  # 3.2 MB
  np="2 4" same -S 1M --record-size 16 --key 0:u64 "$work/big"
  np=3 same -S 1M -u --record-size 16 --key 0:u64 "$work/big"
  local n
  n=$(ranks 3)
  mpi "$n" "$gsort" --backend cpu -S 1M -T "$work/tmp" --record-size 16 --key 0:u64 "$work/big" \
    -o "$work/out/sorted" --stats "$work/stats.json"
  grep -qE '"rounds":([2-9]|[1-9][0-9]+)' "$work/stats.json" || fail "one exchange round only: $(cat "$work/stats.json")"
  grep -q '"runs":[1-9]' "$work/stats.json" || fail "no run spilled: $(cat "$work/stats.json")"
  # Streamed into one file: each rank merges straight into its range (with
  # --fsync too), and the output is still one process's.
  "$gsort" --backend cpu --record-size 16 --key 0:u64 "$work/big" -o "$work/ref"
  mpi "$n" "$gsort" "${rank_opts[@]}" -S 1M -T "$work/tmp" --record-size 16 --key 0:u64 "$work/big" --fsync -v \
    -o "$work/out/sorted" 2>"$work/err" || fail "np $n --fsync -v failed: $(cat "$work/err")"
  grep -q "^gsort: write: rank 0 merges into its range of the output" "$work/err" || fail "-v: $(cat "$work/err")"
  cmp -s "$work/ref" "$work/out/sorted" || fail "np $n --fsync: differs from one process"
  no_leftovers
}

# Whole slices whose partitions land in files (a test hook forces what a
# partition too large for memory does), and the streamed exchange (-S small).
case_receive() {
  gen -n 100000 --record-size 16 --key 0:u64 -d few -o "$work/in"
  GSORT_TEST_RECEIVE_IN_FILES=1 np="2 3" same --record-size 16 --key 0:u64 "$work/in"
  GSORT_TEST_RECEIVE_IN_FILES=1 np=2 same -u -r --record-size 16 --key 0:u64 "$work/in"
  np="2 3" same -S 1M -u --record-size 16 --key 0:u64 "$work/in"
  mpi 2 "$gsort" "${rank_opts[@]}" -v -T "$work/tmp" --record-size 16 --key 0:u64 "$work/in" -o "$work/out/sorted" \
    2>"$work/err"
  grep -q "exchange: whole slices, received in memory" "$work/err" || fail "-v: $(cat "$work/err")"
  mpi 2 "$gsort" "${rank_opts[@]}" -v -S 1M -T "$work/tmp" --record-size 16 --key 0:u64 "$work/in" \
    -o "$work/out/sorted" 2>"$work/err"
  grep -q "exchange: the slices are streamed" "$work/err" || fail "-v, -S 1M: $(cat "$work/err")"
  # --verify receives in files and checks each rank's part against what it
  # read (whole slices and streamed; into one file and into parts).
  np="2 3" same --verify --record-size 16 --key 0:u64 "$work/in"
  np="2 3" same --verify -S 1M --record-size 16 --key 0:u64 "$work/in"
  np=3 same --verify -S 1M -u --record-size 16 --key 0:u64 "$work/in"
  np=2 parts_same --verify -S 1M --record-size 16 --key 0:u64 "$work/in"
  # Ranks that land differently (rank 0 in files, the others in memory) take
  # the same collectives: this hung while only the ranks with files fenced
  # their finish.
  local args=(--record-size 16 --key 0:u64 "$work/in")
  "$gsort" --backend cpu -T "$work/tmp" "${args[@]}" -o "$work/ref"
  timeout 120 "$mpirun_bin" "${mpi_flags[@]}" -np 1 -x GSORT_TEST_RECEIVE_IN_FILES=1 "$gsort" "${rank_opts[@]}" \
    -T "$work/tmp" "${args[@]}" -o "$work/out/sorted" : -np 2 "$gsort" "${rank_opts[@]}" -T "$work/tmp" \
    "${args[@]}" -o "$work/out/sorted" || fail "files on rank 0, memory on the others: failed"
  cmp -s "$work/ref" "$work/out/sorted" || fail "files on rank 0, memory on the others: differs"
  no_leftovers
}

case_stats() {
  gen -n 20000 --record-size 16 --key 0:u32 -o "$work/in"
  local n
  n=$(ranks 3)
  mpi "$n" "$gsort" --backend cpu -T "$work/tmp" --record-size 16 --key 0:u32 "$work/in" -o "$work/out/sorted" \
    --stats "$work/stats.json" -v 2>"$work/err"
  grep -q "\"ranks\":$n" "$work/stats.json" || fail "stats: $(cat "$work/stats.json")"
  # The layout of one process's --stats where the keys mean the same, and valid JSON.
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["gsort_version"] and j["mode"] == "sort" and j["input"]["records"] == 20000' \
    "$work/stats.json" || fail "stats: not one process's layout: $(cat "$work/stats.json")"
  [ "$(grep -o '"rank":[0-9]' "$work/stats.json" | wc -l)" = "$n" ] || fail "stats lack ranks: $(cat "$work/stats.json")"
  grep -q '^gsort: partitions: largest' "$work/err" || fail "-v: $(cat "$work/err")"
  [ "$(grep -o '"partitioned_on":"cpu"' "$work/stats.json" | wc -l)" = "$n" ] || fail "--backend cpu partitioned elsewhere"
  [ "$(grep -c "^gsort: rank $((n - 1)): splitters" "$work/err")" = 1 ] || fail "-v printed more than once"
  # --trace: one Chrome trace, a process per rank, each rank's steps in order (records and lines).
  gen -n 20000 --format csv -o "$work/csv"
  local args
  for args in "--record-size 16 --key 0:u32 $work/in" "-t, -k2,2 $work/csv"; do
    # shellcheck disable=SC2086  # the options: several words
    mpi "$n" "$gsort" --backend cpu -T "$work/tmp" $args -o "$work/out/sorted" --trace "$work/trace.json" ||
      fail "--trace $args: exit $?"
    python3 - "$work/trace.json" "$n" <<'PY' || fail "--trace $args: $(cat "$work/trace.json")"
import json, sys
spans = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "X"]
n = int(sys.argv[2])
assert sorted({e["pid"] for e in spans}) == list(range(1, n + 1)), spans
for pid in range(1, n + 1):
    steps = [e for e in spans if e["pid"] == pid and e["name"] in ("prepare", "splitters", "exchange", "local sort", "write")]
    assert "local sort" in [e["name"] for e in steps], steps
    for a, b in zip(steps, steps[1:]):
        assert a["ts"] + a["dur"] <= b["ts"] + 1, (a, b)
PY
    no_leftovers
  done
}

# --exchange: mpi and shm write what one process writes (auto is shm on one
# host); nccl too where every rank
# has a GPU (GPU machines), and elsewhere (CI: no GPU, perhaps no libnccl)
# every rank stops with one message naming what is missing, leaving nothing.
case_exchange() {
  gen -n 200000 --record-size 16 --key 0:u64 -o "$work/big"
  np="2 3" same -S 1M --exchange mpi --record-size 16 --key 0:u64 "$work/big"
  # shm: whole slices and streamed; slots of a few records make a round
  # take many steps, each filling one half of the slots while the other
  # half is emptied.
  np="2 4" same --exchange shm --record-size 16 --key 0:u64 "$work/big"
  GSORT_TEST_SHM_SLOT_RECORDS=997 np="2 3" same --exchange shm --record-size 16 --key 0:u64 "$work/big"
  GSORT_TEST_SHM_SLOT_RECORDS=61 np=3 same -S 1M --exchange shm -u --record-size 16 --key 0:u64 "$work/big"
  # One output file: each rank maps its range (reserved by fallocate), or
  # writes it with pwrite where it cannot (forced by the hook).
  GSORT_TEST_OUTPUT_PWRITE=1 np="2 3" same --record-size 16 --key 0:u64 "$work/big"
  np=2 same --fsync --record-size 16 --key 0:u64 "$work/big"
  GSORT_TEST_OUTPUT_PWRITE=1 np=2 same --fsync --record-size 16 --key 0:u64 "$work/big"
  mpi 2 "$gsort" "${rank_opts[@]}" -v -T "$work/tmp" --record-size 16 --key 0:u64 "$work/big" \
    -o "$work/out/sorted" 2>"$work/err" || fail "np 2 -v failed"
  grep -qE "^gsort: write: rank 0 fills its range of the output (through a mapping|with pwrite)" "$work/err" ||
    fail "-v does not say how the range is written: $(cat "$work/err")"
  GSORT_TEST_OUTPUT_PWRITE=1 mpi 2 "$hooks" "${rank_opts[@]}" -v -T "$work/tmp" --record-size 16 --key 0:u64 \
    "$work/big" -o "$work/out/sorted" 2>"$work/err" || fail "np 2 -v (pwrite) failed"
  grep -q "^gsort: write: rank 0 fills its range of the output with pwrite" "$work/err" || fail "the hook: $(cat "$work/err")"
  # Whole slices are partitioned on the ranks' GPUs where they have one.
  if [ "${GSORT_DIST_BACKEND:-cpu}" = gpu ]; then
    "$gsort" --backend cpu --record-size 16 --key 0:u64 "$work/big" -o "$work/ref"
    local n
    n=$(ranks 3)
    mpi "$n" "$gsort" "${rank_opts[@]}" -T "$work/tmp" --stats "$work/stats.json" --record-size 16 --key 0:u64 \
      "$work/big" -o "$work/out/sorted" || fail "np $n on GPUs failed"
    cmp -s "$work/ref" "$work/out/sorted" || fail "np $n partitioned on GPUs differs from one process"
    [ "$(grep -o '"partitioned_on":"gpu"' "$work/stats.json" | wc -l)" = "$n" ] || fail "not on the GPUs: $(cat "$work/stats.json")"
  fi
  if [ -z "${GSORT_DIST_EXCHANGE:-}" ]; then
    mpi 2 "$gsort" "${rank_opts[@]}" -v -T "$work/tmp" --record-size 16 --key 0:u64 "$work/big" \
      -o "$work/out/sorted" 2>"$work/err" || fail "np 2 -v failed"
    grep -q "through shared memory" "$work/err" || fail "auto on one host is not shm: $(cat "$work/err")"
  fi
  local gpus
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
  if [ "${gpus:-0}" -ge 2 ]; then
    "$gsort" -S 1M --record-size 16 --key 0:u64 "$work/big" -o "$work/ref"
    for ((n = 2; n <= gpus && n <= max_ranks; n++)); do
      mpi "$n" -x NCCL_DEBUG "$gsort" -S 1M -T "$work/tmp" --exchange nccl --record-size 16 --key 0:u64 "$work/big" \
        -o "$work/out/sorted" || fail "np $n --exchange nccl failed"
      cmp -s "$work/ref" "$work/out/sorted" || fail "np $n --exchange nccl differs from one process"
      no_leftovers
    done
  else
    local rc=0
    rm -f "$work/out/sorted"
    mpi 2 "$gsort" --backend cpu -T "$work/tmp" --exchange nccl --record-size 16 --key 0:u64 "$work/big" \
      -o "$work/out/sorted" >/dev/null 2>"$work/err" || rc=$?
    [ "$rc" = 2 ] || fail "--exchange nccl without two GPUs: exit $rc"
    [ "$(grep -c '^gsort: ' "$work/err")" = 1 ] || fail "not one message: $(cat "$work/err")"
    grep -qiE 'nccl|gpu|cuda|device' "$work/err" || fail "message: $(cat "$work/err")"
    [ ! -e "$work/out/sorted" ] || fail "output written"
    no_leftovers
    echo "--exchange nccl without two GPUs: $(cat "$work/err")"
  fi
}

# refuse EXPECTED ARGS...: exit 2 on every rank, one line on stderr.
refuse() {
  local expected=$1 rc=0; shift
  mpi 2 "$gsort" --backend cpu -T "$work/tmp" "$@" </dev/null >"$work/stdout" 2>"$work/err" || rc=$?
  [ "$rc" != 0 ] || fail "accepted: $*"
  [ "$(grep -c '^gsort: ' "$work/err")" = 1 ] || fail "not one message for $*: $(cat "$work/err")"
  grep -q -- "$expected" "$work/err" || fail "message for $*: $(cat "$work/err")"
  [ ! -e "$work/out/sorted" ] || fail "output written for $*"
  no_leftovers
}

case_refusals() {
  gen -n 100 --record-size 16 --key 0:u32 -o "$work/in"
  refuse "not a multiple" --record-size 15 "$work/in" -o "$work/out/sorted"
  refuse "--trace is not supported with -c" -c --record-size 16 --key 0:u32 "$work/in" --trace "$work/trace.json"
  # main's checks hold for ranks too.
  refuse "is also an input" --record-size 16 --key 0:u32 "$work/in" -o "$work/out/sorted" --stats "$work/in"
}

# Text lines (issue 55): each rank sorts its slice of the inputs end to
# end (cut at line starts), the ranks trade pieces by key range, and each
# merges its range; byte for byte one process's output for its options.
case_lines() {
  gen -n 60000 --format csv -o "$work/csv"
  gen -n 20000 --format logs -o "$work/logs"
  printf 'b\nno terminator' >"$work/unterminated"
  : >"$work/empty"
  tr '\n' '\0' <"$work/csv" >"$work/csv0"
  # A line longer than a rank's share: the ranks it spans take nothing.
  { head -c 400000 /dev/zero | tr '\0' x; printf '\nb\na\nc\n'; } >"$work/long"
  printf 'b\na\n' >"$work/two"
  np="2 3 4" same "$work/logs"
  np="2 4" same -t, -k2,2 -k3,3n "$work/csv" "$work/unterminated" "$work/empty" "$work/logs"
  np="3" same -t, -k2,2 -s "$work/csv"
  # Eight words: -u's keys span every rank's part before the exchange.
  np="2 3" same -u -t, -k2,2 "$work/csv"
  np="4" same -u "$work/csv" "$work/csv"
  np="2" same -r -t, -k4,4g -k1,1 "$work/csv"
  np="3" same -z -t, -k3,3n "$work/csv0"
  np="2" same -S 1M -t, -k3,3n "$work/csv"
  np="4" same "$work/long" "$work/two"
  np="2 3" parts_same -t, -k2,2 "$work/csv" "$work/two"
  # Slices routed in windows of 2 MiB (-S 16M), a line longer than a
  # window, and one key throughout (ranks split it by place).
  { head -c 3000000 /dev/zero | tr '\0' y; printf '\n'; } >"$work/window"
  awk 'BEGIN { for (i = 0; i < 50000; i++) print "same,key" }' >"$work/dups"
  np="2 3" same -S 16M "$work/logs" "$work/window" "$work/logs" "$work/dups"
  np="2 4" same -s -t, -k1,1 "$work/dups" "$work/csv"
  # On one host the ranks send marks, a byte a line, and copy their lines
  # from the input (src/distributed/lines/line_marks.h); --exchange mpi
  # sends the lines themselves: both write one process's bytes.
  mpi 2 "$gsort" "${rank_opts[@]}" -v -T "$work/tmp" "$work/logs" -o "$work/out/sorted" 2>"$work/err" ||
    fail "-v: exit $?"
  grep -q "^gsort: exchange: marks through MPI" "$work/err" || fail "no marks on one host: $(cat "$work/err")"
  mpi 2 "$gsort" "${rank_opts[@]}" -v --exchange mpi -T "$work/tmp" "$work/logs" -o "$work/out/sorted" \
    2>"$work/err" || fail "--exchange mpi -v: exit $?"
  grep -q "^gsort: exchange: text lines through MPI" "$work/err" || fail "--exchange mpi: $(cat "$work/err")"
  local -a marks_opts=("${rank_opts[@]}")
  rank_opts+=(--exchange mpi)
  np="2 3" same -S 16M "$work/logs" "$work/window" "$work/logs" "$work/dups"
  np="2 4" same -s -t, -k1,1 "$work/dups" "$work/csv"
  np="3" same -u -t, -k2,2 "$work/csv" "$work/unterminated"
  rank_opts=("${marks_opts[@]}")
  if locale -a 2>/dev/null | grep -qix 'en_US.utf8'; then
    LC_ALL=en_US.UTF-8 np="2 3" same -t, -k2,2 -k1,1 "$work/csv"
  fi
}

# -o - (or no -o): the parts in rank order onto rank 0's standard output,
# which mpirun forwards; records (whole slices, streamed, -u) and lines.
case_stdout() {
  gen -n 30000 --record-size 16 --key 0:u32 -d few -o "$work/few"
  gen -n 20000 --format csv -o "$work/csv"
  local n args
  for args in "--record-size 16 --key 0:u32|$work/few" "-S 1M -u --record-size 16 --key 0:u32|$work/few" \
    "-t, -k2,2 -k3,3n|$work/csv" "-u -t, -k2,2|$work/csv"; do
    # shellcheck disable=SC2086  # the options: several words
    "$gsort" --backend cpu -T "$work/tmp" ${args%|*} "${args#*|}" -o "$work/ref"
    for n in 2 4; do
      [ "$n" -le "$max_ranks" ] || continue
      # shellcheck disable=SC2086
      mpi "$n" "$gsort" "${rank_opts[@]}" -T "$work/tmp" ${args%|*} "${args#*|}" -o - >"$work/stdout" ||
        fail "np $n, ${args%|*}: exit $?"
      cmp -s "$work/ref" "$work/stdout" || fail "np $n, ${args%|*}: standard output differs from one process"
      no_leftovers
    done
  done
  # A rank failing as the parts are written: every rank exits 2.
  local rc=0
  GSORT_TEST_FAIL_RANK=1 GSORT_TEST_FAIL_AT=write mpi 2 -x GSORT_TEST_FAIL_RANK -x GSORT_TEST_FAIL_AT "$hooks" \
    --backend cpu -T "$work/tmp" -t, -k2,2 "$work/csv" >"$work/stdout" 2>"$work/err" || rc=$?
  [ "$rc" != 0 ] || fail "a rank failing at write: exit 0"
  grep -q "rank 1: test hook" "$work/err" || fail "a rank failing at write: $(cat "$work/err")"
  no_leftovers
}

# --compress-output: each rank compresses its part, and the parts end to
# end are one valid file (frames, members, streams), which decodes to one
# process's output and which gsort reads back.
case_compressed() {
  gen -n 30000 --record-size 16 --key 0:u32 -d few -o "$work/few"
  gen -n 20000 --format csv -o "$work/csv"
  local n ext decode args
  for ext in zst gz bz2 xz; do
    case $ext in zst) decode="zstd -dc" ;; gz) decode="gzip -dc" ;; bz2) decode="bzip2 -dc" ;; xz) decode="xz -dc" ;; esac
    command -v "${decode%% *}" >/dev/null || { echo "skipped .$ext: no ${decode%% *}"; continue; }
    for args in "--record-size 16 --key 0:u32|$work/few" "-u --record-size 16 --key 0:u32|$work/few" \
      "-t, -k2,2 -k3,3n|$work/csv"; do
      # shellcheck disable=SC2086  # the options: several words
      "$gsort" --backend cpu -T "$work/tmp" ${args%|*} "${args#*|}" -o "$work/ref"
      for n in 2 3; do
        [ "$n" -le "$max_ranks" ] || continue
        # shellcheck disable=SC2086
        mpi "$n" "$gsort" "${rank_opts[@]}" -T "$work/tmp" ${args%|*} "${args#*|}" -o "$work/out/sorted.$ext" ||
          fail "np $n, .$ext, ${args%|*}: exit $?"
        $decode "$work/out/sorted.$ext" | cmp -s "$work/ref" - || fail "np $n, .$ext, ${args%|*}: decodes to another output"
        # shellcheck disable=SC2086
        "$gsort" -c ${args%|*} "$work/out/sorted.$ext" || fail "np $n, .$ext: gsort -c does not read it back"
        rm "$work/out/sorted.$ext"
        no_leftovers
      done
    done
  done
  # Onto standard output too.
  mpi 2 "$gsort" "${rank_opts[@]}" -T "$work/tmp" -t, -k2 --compress-output "$work/csv" -o - >"$work/stdout.zst"
  "$gsort" --backend cpu -t, -k2 "$work/csv" -o "$work/ref"
  zstd -dc "$work/stdout.zst" | cmp -s "$work/ref" - || fail "-o - with --compress-output: decodes to another output"
  # And as --output-parts: each part compressed, under the names one process gives them.
  mpi 3 "$gsort" "${rank_opts[@]}" -T "$work/tmp" -t, -k2 --compress-output --output-parts "$work/csv" \
    -o "$work/out/parts" || fail "--output-parts with --compress-output: exit $?"
  [ -e "$work/out/parts/part-00002" ] || fail "--output-parts with --compress-output: $(ls "$work/out/parts")"
  cat "$work/out/parts"/part-* | zstd -dc | cmp -s "$work/ref" - ||
    fail "--output-parts with --compress-output: decodes to another output"
  rm -r "$work/out/parts"
  no_leftovers
}

# -m of sorted lines: every rank cuts every input by the same splitters
# and merges its pieces; where an input is not sorted, rank 0 merges them
# whole, as one process. Both are one process's output.
case_lines_merge() {
  gen -n 30000 --format csv -o "$work/csv"
  gen -n 20000 --format csv --seed 2 -o "$work/csv2"
  "$gsort" -t, -k2,2 -k3,3n "$work/csv" -o "$work/a"
  "$gsort" -t, -k2,2 -k3,3n "$work/csv2" -o "$work/b"
  printf 'zz,0,0,0\nzz,1,1,1' >"$work/unterminated"
  : >"$work/empty"
  "$gsort" "$work/csv" -o "$work/whole_a"
  "$gsort" "$work/csv2" -o "$work/whole_b"
  np="2 3 4" same -m -t, -k2,2 -k3,3n "$work/a" "$work/b" "$work/unterminated" "$work/empty"
  np="2 3" same -m -s -t, -k2,2 "$work/a" "$work/b" "$work/a"
  np="2 4" same -m -u -t, -k2,2 "$work/a" "$work/b"
  np="3" same -m "$work/whole_a" "$work/whole_b"
  # Not sorted by these keys: rank 0 merges them whole.
  np="2 3" same -m -t, -k3,3n "$work/a" "$work/csv"
}

# -m of sorted records, as of lines: the same cuts on every rank, each
# merging its pieces; an input not sorted is one process's error.
case_merge() {
  gen -n 30000 --record-size 16 --key 0:u32 -d few -o "$work/f1"
  gen -n 20000 --record-size 16 --key 0:u32 -d few --seed 3 -o "$work/f2"
  "$gsort" --record-size 16 --key 0:u32 "$work/f1" -o "$work/s1"
  "$gsort" --record-size 16 --key 0:u32 "$work/f2" -o "$work/s2"
  np="2 3 4" same -m --record-size 16 --key 0:u32 "$work/s1" "$work/s2" "$work/s1"
  np="2 4" same -m -u --record-size 16 --key 0:u32 "$work/s1" "$work/s2"
  "$gsort" -r --record-size 16 --key 0:u32 "$work/f1" -o "$work/r1"
  "$gsort" -r --record-size 16 --key 0:u32 "$work/f2" -o "$work/r2"
  np="3" same -m -r --record-size 16 --key 0:u32 "$work/r2" "$work/r1"
  local rc=0
  mpi 3 "$gsort" --backend cpu -T "$work/tmp" -m --record-size 16 --key 0:u32 "$work/s1" "$work/f2" \
    -o "$work/out/unsorted" 2>"$work/err" || rc=$?
  [ "$rc" = 2 ] || fail "-m of an input not sorted: exit $rc"
  grep -q "input to --merge is not sorted" "$work/err" || fail "-m of an input not sorted: $(cat "$work/err")"
  [ ! -e "$work/out/unsorted" ] || fail "-m of an input not sorted: output written"
  no_leftovers
}

# check_same STATUS ARGS...: -c or -C across ranks gives one process's exit
# status and its message (the lines of stderr gsort writes; mpirun adds its own).
check_same() {
  local want=$1 rc=0 n
  shift
  "$gsort" --backend cpu "$@" 2>"$work/ref_err" || rc=$?
  [ "$rc" = "$want" ] || fail "one process: exit $rc, wanted $want: $*"
  for n in 2 3 4; do
    [ "$n" -le "$max_ranks" ] || continue
    rc=0
    mpi "$n" "$gsort" "${rank_opts[@]}" -T "$work/tmp" "$@" 2>"$work/err" || rc=$?
    [ "$rc" = "$want" ] || fail "np $n: exit $rc, wanted $want: $*: $(head -c 600 "$work/err")"
    cmp -s <(grep -a '^gsort: ' "$work/ref_err") <(grep -a '^gsort: ' "$work/err") ||
      fail "np $n: $* says $(grep -a '^gsort: ' "$work/err"), one process $(cat "$work/ref_err")"
    no_leftovers
  done
}

# -c and -C: each rank checks its slice, the ranks each slice's first unit
# against the slice before; the first disorder in input order, numbered from
# the input's start, as one process says it.
case_check() {
  gen -n 40000 --format csv -o "$work/csv"
  "$gsort" -t, -k2,2 -k1,1n "$work/csv" -o "$work/sorted"
  check_same 0 -c -t, -k2,2 -k1,1n "$work/sorted"
  check_same 1 -c -t, -k2,2 -k1,1n "$work/csv"
  check_same 1 -C -t, -k2,2 -k1,1n "$work/csv"
  check_same 1 -c -u -t, -k2,2 "$work/sorted"
  # One disorder near the end: the last rank finds it, the others count the lines before.
  { head -n 39000 "$work/sorted"; printf 'zzz,0,0,0\n'; tail -n 1000 "$work/sorted"; } >"$work/late"
  check_same 1 -c -t, -k2,2 -k1,1n "$work/late"
  # Two lines, one a rank: the disorder lies across the boundary.
  printf 'b\na\n' >"$work/two"
  check_same 1 -c "$work/two"
  # An unterminated last line, and -u's equal lines (checked where they lie, no copy in -T).
  printf 'a\nb\nb' >"$work/unterminated"
  check_same 0 -c "$work/unterminated"
  check_same 1 -c -u "$work/unterminated"
  gen -n 30000 --record-size 16 --key 0:u32 -d sorted -o "$work/rec_sorted"
  gen -n 30000 --record-size 16 --key 0:u32 -o "$work/rec"
  gen -n 30000 --record-size 16 --key 0:u32 -d few -o "$work/rec_few"
  "$gsort" --record-size 16 --key 0:u32 "$work/rec_few" -o "$work/rec_few_sorted"
  check_same 0 -c --record-size 16 --key 0:u32 "$work/rec_sorted"
  check_same 1 -c --record-size 16 --key 0:u32 "$work/rec"
  check_same 1 -c -u --record-size 16 --key 0:u32 "$work/rec_few_sorted"
  check_same 0 -c --record-size 16 --key 0:u32 "$work/rec_few_sorted"
}

# Lines that only rank 0 can read as they come (standard input, a pipe, a
# compressed file): it routes each line to the rank of its key range.
stdin_same() {
  local input=$1 n
  shift
  "$gsort" --backend cpu -T "$work/tmp" "$@" <"$input" -o "$work/ref"
  for n in 2 3 4; do
    [ "$n" -le "$max_ranks" ] || continue
    mpi "$n" "$gsort" "${rank_opts[@]}" -T "$work/tmp" "$@" <"$input" -o "$work/out/sorted" ||
      fail "np $n failed: $*"
    cmp -s "$work/ref" "$work/out/sorted" || fail "np $n differs from one process: $*"
    no_leftovers
  done
}
# Records that only rank 0 can read as they come: it routes each record to
# the rank of its key range (src/distributed/exchange/streamed_records.h).
case_records_stdin() {
  gen -n 50000 --record-size 16 --key 0:u32 -d few -o "$work/few"
  gen -n 30000 --format gensort -o "$work/gs"
  gzip -c "$work/gs" >"$work/gs.gz"
  : >"$work/empty"
  stdin_same "$work/few" --record-size 16 --key 0:u32
  # -S 1M: the splitters from the first 128 KiB, many sends.
  stdin_same "$work/gs" --format gensort -S 1M
  stdin_same "$work/gs" --format gensort -u --key 0:1
  stdin_same "$work/gs" --format gensort -r
  stdin_same "$work/empty" --format gensort
  stdin_same "$work/gs" --format gensort "$work/gs.gz" -
  np="2 3" same --format gensort "$work/gs.gz"
  # -c and -m: rank 0 checks or merges such inputs whole, as one process.
  "$gsort" --format gensort "$work/gs" -o "$work/gs_sorted"
  gzip -c "$work/gs_sorted" >"$work/gs_sorted.gz"
  check_same 0 -c --format gensort "$work/gs_sorted.gz"
  check_same 1 -c --format gensort "$work/gs.gz"
  stdin_same "$work/gs_sorted" -m --format gensort - "$work/gs_sorted"
  rank0_fails_routing "$work/gs" --format gensort
}

# rank0_fails_routing INPUT ARGS...: rank 0 fails as it routes standard
# input (INPUT): every rank stops, nothing is written or left.
rank0_fails_routing() {
  local input=$1 rc=0
  shift
  rm -f "$work/out/sorted"
  GSORT_TEST_FAIL_RANK=0 GSORT_TEST_FAIL_AT=exchange mpi 3 -x GSORT_TEST_FAIL_RANK -x GSORT_TEST_FAIL_AT "$hooks" \
    --backend cpu -T "$work/tmp" "$@" - <"$input" -o "$work/out/sorted" 2>"$work/err" || rc=$?
  [ "$rc" != 0 ] || fail "rank 0 failing as it routes: exit 0"
  grep -q "rank 0: test hook" "$work/err" || fail "rank 0 failing as it routes: $(cat "$work/err")"
  [ ! -e "$work/out/sorted" ] || fail "rank 0 failing as it routes: output written"
  no_leftovers
}

case_lines_stdin() {
  gen -n 60000 --format csv -o "$work/csv"
  gen -n 20000 --format logs -o "$work/logs"
  gzip -c "$work/csv" >"$work/csv.gz"
  : >"$work/empty"
  printf 'b\na' >"$work/two"
  stdin_same "$work/logs"
  stdin_same "$work/csv" -t, -k2,2 -k3,3n
  stdin_same "$work/csv" -s -t, -k2,2
  stdin_same "$work/csv" -u -t, -k2,2
  stdin_same "$work/csv" -S 1M -r -t, -k4,4g
  stdin_same "$work/empty"
  stdin_same "$work/two" -
  stdin_same "$work/logs" -t, -k2,2 "$work/csv.gz"
  stdin_same "$work/logs" "$work/csv" - "$work/two"
  np="2 3" same -t, -k2,2 -k1,1n "$work/csv.gz"
  "$gsort" -t, -k2,2 "$work/csv" -o "$work/csv_sorted"
  gzip -c "$work/csv_sorted" >"$work/csv_sorted.gz"
  check_same 0 -c -t, -k2,2 "$work/csv_sorted.gz"
  check_same 1 -C -t, -k2,2 "$work/csv.gz"
  stdin_same "$work/csv_sorted" -m -t, -k2,2 - "$work/csv_sorted"
  rank0_fails_routing "$work/csv" -t, -k2,2
}

# Random option mixes (issue 55): keys, modifiers, -u, -s, -r, small -S, and
# a rank count, drawn with a fixed seed (GSORT_DIST_SEED to vary it), marks
# and lines through MPI in turn; each against one process's output.
case_lines_mixes() {
  gen -n 30000 --format csv -o "$work/csv"
  gen -n 8000 --format logs -o "$work/logs"
  local -a keys=("" "-t, -k2,2" "-t, -k2,2 -k1,1n" "-t, -k3,3n -k1,1r" "-t, -k4,4g" "-k2" "-t, -k2,2f -k3,3" "-t, -k1.2,1.4")
  local -a flags=("" "-u" "-s" "-r" "-f" "-b" "-s -r" "-u -r" "-d" "-i")
  local -a sizes=("" "-S 2M")
  local i n k f z
  # The measurements' look inside the ranks (a test hook): every rank's local sort talks.
  GSORT_TEST_RANK_SORT_LOG=1 mpi 2 -x GSORT_TEST_RANK_SORT_LOG "$hooks" --backend cpu -T "$work/tmp" "$work/csv" \
    -o "$work/out/sorted" 2>"$work/err" || fail "GSORT_TEST_RANK_SORT_LOG: exit $?"
  [ "$(grep -c '^gsort: lines: sorter' "$work/err")" = 2 ] || fail "GSORT_TEST_RANK_SORT_LOG: $(cat "$work/err")"
  RANDOM=${GSORT_DIST_SEED:-55}
  local -a given=("${rank_opts[@]}")
  for ((i = 0; i < 10; i++)); do
    n=$((2 + RANDOM % 3))
    k=${keys[RANDOM % ${#keys[@]}]} f=${flags[RANDOM % ${#flags[@]}]} z=${sizes[RANDOM % ${#sizes[@]}]}
    # Every other mix sends the lines themselves, the rest marks (one host).
    rank_opts=("${given[@]}")
    [ $((i % 2)) = 0 ] || rank_opts+=(--exchange mpi)
    # shellcheck disable=SC2086  # the options: several words each
    np=$n same $k $f $z "$work/csv" "$work/logs"
  done
  rank_opts=("${given[@]}")
}

# Ranks that read lines in different locales would order them differently:
# the agreement stops them before any work.
case_lines_locale() {
  locale -a 2>/dev/null | grep -qix 'en_US.utf8' || { echo "skipped: en_US.UTF-8 is not installed"; return 0; }
  gen -n 1000 --format csv -o "$work/csv"
  local wrapper rc=0
  wrapper=$work/locale_rank.sh
  printf '#!/usr/bin/env bash\n[ "${OMPI_COMM_WORLD_RANK:-0}" = 1 ] && export LC_ALL=en_US.UTF-8\nexec "$@"\n' >"$wrapper"
  chmod +x "$wrapper"
  LC_ALL=C mpi 2 "$wrapper" "$gsort" --backend cpu -T "$work/tmp" "$work/csv" -o "$work/out/sorted" \
    2>"$work/err" || rc=$?
  [ "$rc" = 2 ] || fail "ranks in two locales: exit $rc"
  grep -q "rank 1: the locale differs from rank 0's" "$work/err" || fail "message: $(cat "$work/err")"
  [ ! -e "$work/out/sorted" ] || fail "output written"
  no_leftovers
}

# Rank 1 of a sort of lines fails, or is killed, in each phase: every rank
# stops with a non-zero status, the old output stays, nothing is left.
case_lines_faults() {
  gen -n 200000 --format csv -o "$work/csv"
  local n rc phase how
  n=$(ranks 3)
  for phase in sort exchange write; do
    for how in "" -kill; do
      echo old >"$work/out/sorted"
      rc=0
      GSORT_TEST_FAIL_RANK=1 GSORT_TEST_FAIL_AT=$phase$how timeout 120 "$mpirun_bin" "${mpi_flags[@]}" \
        -x GSORT_TEST_FAIL_RANK -x GSORT_TEST_FAIL_AT -np "$n" "$hooks" --backend cpu -S 1M -T "$work/tmp" \
        -t, -k2,2 "$work/csv" -o "$work/out/sorted" >/dev/null 2>"$work/err" || rc=$?
      [ "$rc" != 124 ] || fail "rank 1 at $phase$how: timed out"
      [ "$rc" != 0 ] || fail "rank 1 at $phase$how: exit 0"
      [ "$(cat "$work/out/sorted")" = old ] || fail "rank 1 at $phase$how: the old output changed"
      [ -n "$how" ] || grep -q "rank 1: test hook" "$work/err" || fail "$phase: message: $(cat "$work/err")"
      # The next gsort into the same place cleans what a killed one could not.
      "$gsort" --backend cpu -T "$work/tmp" "$work/csv" -o "$work/out/sorted"
      rm -f "$work/out/sorted"
      no_leftovers
    done
  done
  changed_input -t, -k2,2 "$work/csv"
}

# changed_input ARGS... INPUT: rank 1 gives INPUT a new modification time
# while the ranks read it, as a writer would: every rank stops with exit 2
# and the file's name, before any output (ConcatenatedInputs::check_unchanged).
changed_input() {
  local input=${*: -1} rc=0
  echo old >"$work/out/sorted"
  GSORT_TEST_FAIL_RANK=1 GSORT_TEST_FAIL_AT=exchange-touch GSORT_TEST_TOUCH_FILE=$input timeout 120 \
    "$mpirun_bin" "${mpi_flags[@]}" -x GSORT_TEST_FAIL_RANK -x GSORT_TEST_FAIL_AT -x GSORT_TEST_TOUCH_FILE \
    -np "$(ranks 2)" "$hooks" "${rank_opts[@]}" -S 1M -T "$work/tmp" "$@" -o "$work/out/sorted" >/dev/null \
    2>"$work/err" || rc=$?
  [ "$rc" = 2 ] || fail "an input changed meanwhile: exit $rc: $(cat "$work/err")"
  grep -q "$input: the file changed while gsort read it" "$work/err" || fail "changed input: $(cat "$work/err")"
  [ "$(cat "$work/out/sorted")" = old ] || fail "an input changed meanwhile: the old output changed"
  rm -f "$work/out/sorted"
  no_leftovers
}

# fault N PHASE [ARGS...]: rank 1 fails at PHASE; every rank must stop with
# a non-zero status, the destination must not appear, nothing may be left.
fault() {
  local n=$1 phase=$2 rc=0; shift 2
  n=$(ranks "$n")
  GSORT_TEST_FAIL_RANK=1 GSORT_TEST_FAIL_AT=$phase mpi "$n" -x GSORT_TEST_FAIL_RANK -x GSORT_TEST_FAIL_AT \
    "$hooks" "${rank_opts[@]}" -S 1M -T "$work/tmp" --record-size 16 --key 0:u64 "$work/big" "$@" \
    >/dev/null 2>"$work/err" || rc=$?
  [ "$rc" != 0 ] || fail "np $n, $phase: exit 0"
  [ ! -e "$work/out/sorted" ] && [ ! -e "$work/out/parts/part-00000" ] || fail "np $n, $phase: output appeared"
  no_leftovers
}

case_faults() {
  gen -n 200000 --record-size 16 --key 0:u64 -o "$work/big"
  for phase in exchange sort write; do
    fault 3 "$phase" -o "$work/out/sorted"
    grep -q "rank 1: test hook" "$work/err" || fail "$phase: message: $(cat "$work/err")"
    fault 2 "$phase" --output-parts -o "$work/out/parts"
    # Whole slices sorted in memory and written straight into the output
    # file at their offsets (the last -S wins).
    fault 2 "$phase" -S 1G -o "$work/out/sorted"
  done
  changed_input --record-size 16 --key 0:u64 "$work/big"
}

# Ranks that differ in -S, --parallel and (on a GPU machine) backend agree
# on everything they must share: no hang, no crash, the output of one
# process. Each rank runs through a wrapper that gives it its own options.
per_rank() {
  local wrapper=$work/per_rank.sh
  cat >"$wrapper" <<'WRAP'
#!/usr/bin/env bash
r=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}
eval "extra=(\${RANK${r}_ARGS:-})"
exec "$GSORT_RANK_BIN" "${extra[@]}" "$@"
WRAP
  chmod +x "$wrapper"
  echo "$wrapper"
}
case_differ() {
  gen -n 300000 --format gensort -o "$work/g"
  "$gsort" --backend cpu --format gensort "$work/g" -o "$work/ref"
  local wrapper n
  wrapper=$(per_rank)
  n=$(ranks 2)
  # The last pair: one rank on the CPU, the other on its GPU where it has one.
  for pair in "-S 32M|-S 40M" "-S 1M|-S 4G" "-S 300M|-S 16M" "-S 64M|-S 2G" "--parallel 1|--parallel 4" \
    "--backend cpu|--backend auto"; do
    for ex in shm mpi; do
      [ -z "${GSORT_DIST_EXCHANGE:-}" ] || ex=$GSORT_DIST_EXCHANGE
      rm -f "$work/out/sorted"
      GSORT_RANK_BIN=$gsort RANK0_ARGS=${pair%|*} RANK1_ARGS=${pair#*|} timeout 120 \
        "$mpirun_bin" "${mpi_flags[@]}" -x GSORT_RANK_BIN -x RANK0_ARGS -x RANK1_ARGS -np "$n" "$wrapper" \
        "${rank_opts[@]}" --exchange "$ex" -T "$work/tmp" --format gensort "$work/g" -o "$work/out/sorted" \
        2>"$work/err" || fail "ranks with $pair, $ex: exit $? $(head -c 600 "$work/err")"
      cmp -s "$work/ref" "$work/out/sorted" || fail "ranks with $pair, $ex: differs from one process"
      no_leftovers
      [ -z "$(ls /dev/shm | grep '^gsort-shm\.')" ] || fail "left in /dev/shm: $(ls /dev/shm)"
    done
  done
}

# mpmd_refused EXPECTED RANK0_ARGS... -- RANK1_ARGS...: two ranks launched
# with mpirun's MPMD syntax (A : B), each given its own options and inputs
# (a leading "-wdir DIR" is mpirun's, for the rank's working directory:
# node-local files of the same name; a leading "-np N" starts N ranks of
# that side). They must not sort: exit 2 within a bound (no hang), one line
# from rank 1 (rank $reporting where set) naming EXPECTED (no "internal
# error", no MPI message), no output, nothing left.
mpmd_refused() {
  local expected=$1 rc=0 first=() second=()
  shift
  while [ "$1" != -- ]; do first+=("$1"); shift; done
  shift
  second=("$@")
  local w0=() w1=() n0=1 n1=1
  while [ "${first[0]}" = -wdir ] || [ "${first[0]}" = -np ]; do
    if [ "${first[0]}" = -np ]; then n0=${first[1]}; else w0=(-wdir "${first[1]}"); fi
    first=("${first[@]:2}")
  done
  while [ "${second[0]}" = -wdir ] || [ "${second[0]}" = -np ]; do
    if [ "${second[0]}" = -np ]; then n1=${second[1]}; else w1=(-wdir "${second[1]}"); fi
    second=("${second[@]:2}")
  done
  timeout 60 "$mpirun_bin" "${mpi_flags[@]}" -np "$n0" "${w0[@]}" "$gsort" "${rank_opts[@]}" -T "$work/tmp" \
    "${first[@]}" : -np "$n1" "${w1[@]}" "$gsort" "${rank_opts[@]}" -T "$work/tmp" "${second[@]}" </dev/null \
    >"$work/stdout" 2>"$work/err" || rc=$?
  [ "$rc" != 124 ] || fail "$expected: timed out (a hang)"
  [ "$rc" = 2 ] || fail "$expected: exit $rc: $(head -c 600 "$work/err")"
  [ "$(grep -c '^gsort: ' "$work/err")" = 1 ] || fail "$expected: not one message: $(head -c 600 "$work/err")"
  grep -q -- "^gsort: rank ${reporting:-1}: $expected" "$work/err" ||
    fail "$expected: message: $(head -c 600 "$work/err")"
  ! grep -qiE 'internal error|MPI_ERR' "$work/err" || fail "$expected: $(head -c 600 "$work/err")"
  [ -z "$(ls "$work/out")" ] || fail "$expected: output written: $(ls "$work/out")"
  no_leftovers
}

# Ranks given different options (issue 35): each difference that would
# change the output or part the ranks' collectives is named before any
# record moves.
case_mismatch_options() {
  gen -n 1000 --format gensort -o "$work/g"
  local o=$work/out/sorted g=$work/g
  mpmd_refused "option --unique differs from rank 0's (on against off)" --format gensort "$g" -o "$o" -- \
    -u --format gensort "$g" -o "$o"
  mpmd_refused "option --exchange differs from rank 0's (shm against mpi)" --format gensort "$g" -o "$o" \
    --exchange mpi -- --format gensort "$g" -o "$o" --exchange shm
  mpmd_refused "option --output-parts differs from rank 0's (on against off)" --format gensort "$g" -o "$o" -- \
    --format gensort "$g" --output-parts -o "$o"
  mpmd_refused "option --record-size differs from rank 0's (50 against 100)" --record-size 100 "$g" -o "$o" -- \
    --record-size 50 "$g" -o "$o"
  mpmd_refused "option -o differs from rank 0's ('$work/out/other' against '$o')" --format gensort "$g" -o "$o" -- \
    --format gensort "$g" -o "$work/out/other"
  mpmd_refused "option --key differs from rank 0's" --record-size 100 --key 0:10 "$g" -o "$o" -- \
    --record-size 100 --key 0:12 "$g" -o "$o"
  # --help or --version on one rank: it printed, and the other must not sort alone.
  mpmd_refused "option --help or --version differs from rank 0's (not given against given)" --version -- \
    --format gensort "$g" -o "$o"
  # Alike where it counts: --format gensort is --record-size 100 --key 0:10.
  "$gsort" --backend cpu --format gensort "$g" -o "$work/ref"
  timeout 60 "$mpirun_bin" "${mpi_flags[@]}" -np 1 "$gsort" "${rank_opts[@]}" -T "$work/tmp" --format gensort "$g" \
    -o "$o" : -np 1 "$gsort" "${rank_opts[@]}" -T "$work/tmp" --record-size 100 --key 0:10 "$g" -o "$o" ||
    fail "--format gensort against its --record-size and --key: failed"
  cmp -s "$work/ref" "$o" || fail "--format gensort against its --record-size and --key: differs from one process"
  rm "$o"
  no_leftovers
}

# Ranks that read different files under one name, or of one size (issue
# 35): each rank's inputs are identified by name, size, modification time
# and a hash of sampled blocks (src/distributed/ranks/input_identity.h), and
# the first difference is named.
case_mismatch_inputs() {
  local o=$work/out/sorted
  gen -n 1000 --format gensort --seed 1 -o "$work/a"
  gen -n 1000 --format gensort --seed 2 -o "$work/b"
  mpmd_refused "input 1 differs from rank 0's (name '$work/b' against '$work/a')" --format gensort "$work/a" -o "$o" \
    -- --format gensort "$work/b" -o "$o"
  # Node-local files: one name, each rank's working directory its own.
  mkdir "$work/n0" "$work/n1"
  gen -n 1000 --format gensort --seed 1 -o "$work/n0/in"
  gen -n 750 --format gensort --seed 1 -o "$work/n1/in"
  mpmd_refused "input 'in' differs from rank 0's (size 75000 against 100000)" -wdir "$work/n0" --format gensort in \
    -o "$o" -- -wdir "$work/n1" --format gensort in -o "$o"
  # The same size and time, content different in a sampled block.
  gen -n 1000 --format gensort --seed 2 -o "$work/n1/in"
  touch -r "$work/n0/in" "$work/n1/in"
  mpmd_refused "input 'in' differs from rank 0's (sampled content " -wdir "$work/n0" --format gensort in -o "$o" -- \
    -wdir "$work/n1" --format gensort in -o "$o"
  # Larger than the samples: one record changed between two of them (the
  # 64 KiB blocks are 1.93 MB / 15 apart) is seen only by the time.
  gen -n 20000 --format gensort --seed 3 -o "$work/n0/in"
  cp "$work/n0/in" "$work/n1/in"
  printf 'XXXXXXXXXX' | dd of="$work/n1/in" bs=1 seek=100000 conv=notrunc status=none
  cmp -s "$work/n0/in" "$work/n1/in" && fail "the copy was not changed"
  touch -d '2020-01-01 00:00:00 UTC' "$work/n0/in"
  touch -d '2020-01-01 00:00:05 UTC' "$work/n1/in"
  mpmd_refused "input 'in' differs from rank 0's (modified 2020-01-01 00:00:05 UTC against 2020-01-01 00:00:00 UTC)" \
    -wdir "$work/n0" --format gensort in -o "$o" -- -wdir "$work/n1" --format gensort in -o "$o"
  # Copies that keep their time are one input: the sort runs.
  cp -p "$work/n0/in" "$work/n1/in"
  "$gsort" --backend cpu --format gensort "$work/n0/in" -o "$work/ref"
  timeout 60 "$mpirun_bin" "${mpi_flags[@]}" -np 1 -wdir "$work/n0" "$gsort" "${rank_opts[@]}" -T "$work/tmp" \
    --format gensort in -o "$o" : -np 1 -wdir "$work/n1" "$gsort" "${rank_opts[@]}" -T "$work/tmp" --format gensort in \
    -o "$o" || fail "node-local copies kept with cp -p: failed"
  cmp -s "$work/ref" "$o" || fail "node-local copies kept with cp -p: differs from one process"
  rm "$o"
  no_leftovers
}

# outside_samples FILE OFFSET BYTES: whether those bytes of FILE miss every
# block that the ranks' identities sample (16 of 64 KiB, first, last and
# evenly between: src/distributed/ranks/input_identity.h).
outside_samples() {
  local size span i begin
  size=$(stat -c %s "$1")
  span=$((size - 65536))
  for ((i = 0; i < 16; i++)); do
    begin=$((span / 15 * i + span % 15 * i / 15))
    [ $(($2 + $3)) -le "$begin" ] || [ "$2" -ge $((begin + 65536)) ] || return 1
  done
}

# change_record FILE RECORD RECORD_SIZE: one record's first bytes changed in
# place, its size and modification time kept; the record must lie between
# the sampled blocks, where the identities cannot see it.
change_record() {
  local at=$(($2 * $3))
  outside_samples "$1" "$at" "$3" || fail "record $2 of $1 lies in a sampled block"
  touch -r "$1" "$work/time"
  printf 'XXXXXXXX' | dd of="$1" bs=1 seek="$at" conv=notrunc status=none
  touch -r "$work/time" "$1"
}

# Ranks given files of one name, size and time whose content differs only
# between the sampled blocks (issue 52): each view of the inputs (a host and
# its files) is hashed whole beside the sort and compared before the
# commit, so one record changed anywhere stops every rank with exit 2 and
# one line, before any output, whichever rank's file it is and whether or
# not that rank reads the record itself.
case_mismatch_content() {
  local o=$work/out/sorted record
  mkdir "$work/n0" "$work/n1"
  # 10 MB: 100,000 records of 100 bytes, 50,000 in each of two ranks' slices.
  gen -n 100000 --format gensort --seed 5 -o "$work/n0/in"
  # The first and the last records outside the sampled blocks, either side
  # of the two slices' boundary, and one in the middle of each slice.
  for record in 656 99343 49999 50000 25000 75000; do
    cp -p "$work/n0/in" "$work/n1/in"
    change_record "$work/n1/in" "$record" 100
    mpmd_refused "input 'in' differs from rank 0's (content of bytes " -wdir "$work/n0" --format gensort in -o "$o" \
      -- -wdir "$work/n1" --format gensort in -o "$o"
  done
  # Rank 0's file changed, streamed in small rounds.
  mpmd_refused "input 'in' differs from rank 0's (content of bytes 5000000 to 9999999" -wdir "$work/n1" -S 1M \
    --format gensort in -o "$o" -- -wdir "$work/n0" -S 1M --format gensort in -o "$o"
  # Three ranks, two of them on one file: the third's file differs in the
  # first slice, which only rank 0 reads; and the other way round, where
  # the two share hashing the first slice.
  cp -p "$work/n0/in" "$work/n1/in"
  change_record "$work/n1/in" 15000 100
  reporting=2 mpmd_refused "input 'in' differs from rank 0's (content of bytes 0 to 3333299" -np 2 -wdir "$work/n0" \
    --format gensort in -o "$o" -- -wdir "$work/n1" --format gensort in -o "$o"
  mpmd_refused "input 'in' differs from rank 0's (content of bytes 0 to 3333299" -wdir "$work/n1" --format gensort in \
    -o "$o" -- -np 2 -wdir "$work/n0" --format gensort in -o "$o"
  # Several inputs of 24-byte records: the second differs, and is named.
  gen -n 300000 --record-size 24 --key 0:u64 --seed 6 -o "$work/n0/a"
  gen -n 250001 --record-size 24 --key 0:u64 --seed 7 -o "$work/n0/b"
  cp -p "$work/n0/a" "$work/n1/a"
  cp -p "$work/n0/b" "$work/n1/b"
  change_record "$work/n1/b" 90000 24
  mpmd_refused "input 'b' differs from rank 0's (content of bytes " -wdir "$work/n0" --record-size 24 --key 0:u64 \
    a b -o "$o" -- -wdir "$work/n1" --record-size 24 --key 0:u64 a b -o "$o"
  # Copies alike: each view is hashed and the sort runs, as one process's.
  cp -p "$work/n0/b" "$work/n1/b"
  "$gsort" --backend cpu --record-size 24 --key 0:u64 "$work/n0/a" "$work/n0/b" -o "$work/ref"
  timeout 60 "$mpirun_bin" "${mpi_flags[@]}" -np 1 -wdir "$work/n0" "$gsort" "${rank_opts[@]}" -T "$work/tmp" -v \
    --record-size 24 --key 0:u64 a b -o "$o" : -np 2 -wdir "$work/n1" "$gsort" "${rank_opts[@]}" -T "$work/tmp" \
    --record-size 24 --key 0:u64 a b -o "$o" 2>"$work/err" || fail "copies alike: failed: $(cat "$work/err")"
  grep -q "inputs: read through 2 views" "$work/err" || fail "copies alike, -v: $(cat "$work/err")"
  cmp -s "$work/ref" "$o" || fail "copies alike: differs from one process"
  rm "$o"
  # A rank that fails mid-sort ends the hashing beside it on every rank: no
  # hang, no output, nothing left.
  local rc=0
  GSORT_TEST_FAIL_RANK=1 GSORT_TEST_FAIL_AT=exchange timeout 60 "$mpirun_bin" "${mpi_flags[@]}" \
    -x GSORT_TEST_FAIL_RANK -x GSORT_TEST_FAIL_AT -np 1 -wdir "$work/n0" "$hooks" "${rank_opts[@]}" -T "$work/tmp" \
    --record-size 24 --key 0:u64 a b -o "$o" : -np 1 -wdir "$work/n1" "$hooks" "${rank_opts[@]}" -T "$work/tmp" \
    --record-size 24 --key 0:u64 a b -o "$o" >/dev/null 2>"$work/err" || rc=$?
  [ "$rc" != 0 ] && [ "$rc" != 124 ] || fail "a rank failing beside the hashing: exit $rc"
  grep -q "^gsort: rank 1: test hook" "$work/err" || fail "a rank failing beside the hashing: $(cat "$work/err")"
  [ ! -e "$o" ] || fail "a rank failing beside the hashing: output written"
  no_leftovers
  # One file on one host: one view, nothing hashed.
  mpi 2 "$gsort" "${rank_opts[@]}" -T "$work/tmp" -v --record-size 24 --key 0:u64 "$work/n0/a" "$work/n0/b" -o "$o" \
    2>"$work/err" || fail "one view: failed: $(cat "$work/err")"
  grep -q "inputs: every rank reads the same files on one host" "$work/err" || fail "one view, -v: $(cat "$work/err")"
  cmp -s "$work/ref" "$o" || fail "one view: differs from one process"
  rm "$o"
  no_leftovers
}

# A rank killed (SIGKILL) while its received records are in files in -T
# leaves its temporary directory; the next distributed run removes it as
# one process does, though it sorts in memory and never spills (issue 35).
case_stale_temp() {
  gen -n 200000 --record-size 16 --key 0:u64 -o "$work/big"
  "$gsort" --backend cpu --record-size 16 --key 0:u64 "$work/big" -o "$work/ref"
  local n rc=0
  n=$(ranks 2)
  GSORT_TEST_FAIL_RANK=1 GSORT_TEST_FAIL_AT=exchange-kill timeout 120 "$mpirun_bin" "${mpi_flags[@]}" \
    -x GSORT_TEST_FAIL_RANK -x GSORT_TEST_FAIL_AT -np "$n" "$hooks" "${rank_opts[@]}" -S 1M -T "$work/tmp" \
    --record-size 16 --key 0:u64 "$work/big" -o "$work/out/sorted" >/dev/null 2>&1 || rc=$?
  [ "$rc" != 0 ] && [ "$rc" != 124 ] || fail "rank 1 killed: exit $rc"
  [ -n "$(find "$work/tmp" -mindepth 1 -maxdepth 1 -name 'gsort.*')" ] ||
    fail "the killed rank left no directory in -T: $(ls -a "$work/tmp")"
  mpi "$n" "$gsort" "${rank_opts[@]}" -v -T "$work/tmp" --record-size 16 --key 0:u64 "$work/big" -o "$work/out/sorted" \
    --stats "$work/stats.json" 2>"$work/err" || fail "the next run failed: $(cat "$work/err")"
  grep -q "exchange: whole slices, received in memory" "$work/err" || fail "-v: $(cat "$work/err")"
  ! grep -q '"runs":[1-9]' "$work/stats.json" || fail "a run spilled: $(cat "$work/stats.json")"
  cmp -s "$work/ref" "$work/out/sorted" || fail "the next run differs from one process"
  rm "$work/out/sorted"
  no_leftovers
}

# One rank that cannot have the memory it needs fails every rank: exit 2
# within a bound, one line, the old output kept, nothing left.
case_memlimit() {
  # 400 MB: each rank's half alone is more than rank 1's 256 MiB of address space.
  gen -n 4000000 --format gensort -o "$work/g"
  local wrapper=$work/limited.sh n
  n=$(ranks 2)
  cat >"$wrapper" <<WRAP
#!/usr/bin/env bash
[ "\${OMPI_COMM_WORLD_RANK:-0}" = 1 ] && ulimit -v 262144
exec "$gsort" "\$@"
WRAP
  chmod +x "$wrapper"
  echo old >"$work/out/sorted"
  local rc=0
  timeout 120 "$mpirun_bin" "${mpi_flags[@]}" -np "$n" "$wrapper" "${rank_opts[@]}" -S 1G -T "$work/tmp" \
    --format gensort "$work/g" -o "$work/out/sorted" 2>"$work/err" || rc=$?
  [ "$rc" != 124 ] || fail "a rank under a memory limit: timed out (a hang)"
  [ "$rc" != 0 ] || fail "a rank under a memory limit: exit 0"
  [ "$(grep -c '^gsort: ' "$work/err")" = 1 ] || fail "not one message: $(cat "$work/err")"
  grep -q "^gsort: rank 1: .*give a smaller" "$work/err" || fail "message: $(cat "$work/err")"
  [ "$(cat "$work/out/sorted")" = old ] || fail "the old output changed"
  rm "$work/out/sorted"
  no_leftovers
}

# kill -9 of each rank at each phase: the job ends within a bound, the old
# output is kept, and once the next gsort has run in the same places
# nothing is left: not in -T, not beside the output, not in /dev/shm.
case_kill() {
  gen -n 200000 --record-size 16 --key 0:u64 -o "$work/big"
  local n rank phase rc
  n=$(ranks 2)
  for rank in 0 1; do
    for phase in exchange sort write; do
      for where in "-o $work/out/sorted" "--output-parts -o $work/out/parts"; do
        echo old >"$work/out/sorted"
        rc=0
        # shellcheck disable=SC2086  # $where: two or three words
        GSORT_TEST_FAIL_RANK=$rank GSORT_TEST_FAIL_AT=$phase-kill timeout 120 "$mpirun_bin" "${mpi_flags[@]}" \
          -x GSORT_TEST_FAIL_RANK -x GSORT_TEST_FAIL_AT -np "$n" "$hooks" "${rank_opts[@]}" -S 8M -T "$work/tmp" \
          --record-size 16 --key 0:u64 "$work/big" $where >/dev/null 2>&1 || rc=$?
        [ "$rc" != 124 ] || fail "rank $rank killed at $phase: timed out"
        [ "$rc" != 0 ] || fail "rank $rank killed at $phase: exit 0"
        [ "$(cat "$work/out/sorted")" = old ] || fail "rank $rank killed at $phase: the old output changed"
        [ ! -e "$work/out/parts/part-00000" ] || fail "rank $rank killed at $phase: a part appeared"
        # The next gsort into the same place cleans what the killed one could not.
        # shellcheck disable=SC2086
        "$gsort" --backend cpu -T "$work/tmp" --record-size 16 --key 0:u64 "$work/big" $where
        rm -rf "$work/out/sorted" "$work/out/parts"
        no_leftovers
        [ -z "$(ls /dev/shm | grep '^gsort-shm\.')" ] || fail "left in /dev/shm: $(ls /dev/shm)"
      done
    done
  done
}

# A rank killed by SIGTERM mid-exchange (what mpirun sends when it ends a
# job): the handlers remove every rank's temporary files.
case_signal() {
  gen -n 200000 --record-size 16 --key 0:u64 -o "$work/big"
  fault 2 exchange-signal -o "$work/out/sorted"
  fault 3 exchange-signal --output-parts -o "$work/out/parts"
}

"case_$case"
echo "ok: $case"
