#!/usr/bin/env bash
# The distributed sort across simulated hosts (issue 55): multihost_test.sh
# GSORT GSORT_GEN GSORT_TEST_HOOKS CASE. Each host of hosts.sh has its own
# network namespace, hostname, /dev/shm and -T; mpirun reaches them over TCP
# (host_agent.sh in place of ssh). Ranks find the input in one of two
# layouts, both used here: "shared", one directory every host sees (as NFS
# would: one file, one inode), and "local", the same path on every host
# holding that host's own copy (cp -p: identical bytes and time). Either
# way, ranks on different hosts are different views of the input, so its
# content is hashed and compared (src/distributed/ranks/input_views.h).
# The output directory is shared, as an output across hosts must be.
# Exits 77 (skipped) where namespaces cannot be made (not root).
set -euo pipefail
gsort=$1 gen_bin=$2 hooks=$3 case=$4
here=$(dirname "$(readlink -f "$0")")
# shellcheck source-path=SCRIPTDIR
source "$here/hosts.sh"
if ! mh_permitted; then
  echo "skipped: network namespaces cannot be made here (needs root with CAP_NET_ADMIN and CAP_SYS_ADMIN)"
  exit 77
fi

fail() { echo "FAIL (multihost $case): $*" >&2; exit 1; }
gen() { "$gen_bin" "$@"; }

# The same input in both layouts: shared/NAME, and each host's local/NAME.
place_input() {
  local name=$1 h
  for ((h = 1; h <= mh_hosts; h++)); do cp -p "$MH_WORK/shared/$name" "$MH_WORK/hosts/h$h/local/$name"; done
}
input_path() { echo "$MH_WORK/$1/$2"; }

# Nothing of gsort's may stay on any host (-T, /dev/shm) nor beside the output.
no_leftovers() {
  local h left
  for ((h = 1; h <= mh_hosts; h++)); do
    left=$(find "$MH_WORK/hosts/h$h/temp" "$MH_WORK/hosts/h$h/shm" -mindepth 1 | head -5)
    [ -z "$left" ] || fail "left on host $h: $left"
  done
  left=$(find "$MH_WORK/out" -mindepth 1 -name '.*' | head -5)
  [ -z "$left" ] || fail "temporary files left beside the output: $left"
}

# ranks SPEC ARGS...: mpirun on the hosts of SPEC (mh_hostlist), each rank
# running ARGS. The rank count is the slots'.
ranks() {
  local spec=$1 n=0 h
  shift
  for h in $spec; do n=$((n + $([ "${h#*:}" = "$h" ] && echo 1 || echo "${h#*:}"))); done
  mh_mpirun --host "$(mh_hostlist "$spec")" -np "$n" "$@"
}

# same SPEC LAYOUT VIEWS ARGS...: the ranks on SPEC's hosts, reading the
# input of LAYOUT, write what one process writes; the input is read through
# VIEWS views (one per host), the records move through MPI (never shared
# memory between hosts), and nothing is left anywhere.
same() {
  local spec=$1 layout=$2 views=$3
  shift 3
  mkdir -p "$MH_WORK/reftemp"
  "$gsort" --backend cpu -T "$MH_WORK/reftemp" "$@" "$(input_path shared in.dat)" -o "$MH_WORK/ref"
  ranks "$spec" "$gsort" --backend cpu -v -T "$MH_WORK/temp" "$@" "$(input_path "$layout" in.dat)" \
    -o "$MH_WORK/out/sorted" 2>"$MH_WORK/err" || fail "hosts '$spec', $layout: exit $?: $(head -c 800 "$MH_WORK/err")"
  cmp -s "$MH_WORK/ref" "$MH_WORK/out/sorted" || fail "hosts '$spec', $layout: differs from one process"
  grep -q "inputs: read through $views views" "$MH_WORK/err" ||
    fail "hosts '$spec', $layout: not $views views: $(grep 'inputs:' "$MH_WORK/err")"
  grep -qE "^gsort: exchange: .* through MPI$" "$MH_WORK/err" ||
    fail "hosts '$spec': not through MPI: $(grep 'exchange:' "$MH_WORK/err")"
  rm "$MH_WORK/out/sorted"
  no_leftovers
}

# refused SPEC EXPECTED [-x VAR]... COMMAND...: every rank exits 2 on its own
# (mpirun does not end the job at the first exit, and then exits 0 itself:
# each rank's status is recorded by exit_recorder.sh), within the bound, with one line on stderr
# naming EXPECTED; the old output is kept; nothing is left anywhere.
refused() {
  local spec=$1 expected=$2 rc=0 n=0 f h forward=()
  shift 2
  while [ "$1" = -x ]; do forward+=(-x "$2"); shift 2; done
  rm -rf "$MH_WORK/exits" && mkdir "$MH_WORK/exits"
  echo old >"$MH_WORK/out/sorted"
  ranks "$spec" --mca orte_abort_on_non_zero_status 0 "${forward[@]}" "$here/exit_recorder.sh" "$MH_WORK/exits" "$@" \
    >/dev/null 2>"$MH_WORK/err" || rc=$?
  [ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "$expected: timed out (a hang)"
  for f in "$MH_WORK/exits"/*; do
    n=$((n + 1))
    [ "$(cat "$f")" = 2 ] || fail "$expected: $(basename "$f") exited $(cat "$f")"
  done
  for h in $spec; do n=$((n - $([ "${h#*:}" = "$h" ] && echo 1 || echo "${h#*:}"))); done
  [ "$n" = 0 ] || fail "$expected: not every rank's exit was recorded: $(ls "$MH_WORK/exits")"
  [ "$(grep -c '^gsort: ' "$MH_WORK/err")" = 1 ] || fail "$expected: not one message: $(head -c 800 "$MH_WORK/err")"
  grep -q -- "^gsort: $expected" "$MH_WORK/err" || fail "$expected: message: $(head -c 800 "$MH_WORK/err")"
  [ "$(cat "$MH_WORK/out/sorted")" = old ] || fail "$expected: the old output changed"
  rm "$MH_WORK/out/sorted"
  no_leftovers
}

# Byte for byte as one process at 2, 3 and 4 hosts, in both layouts, and
# with two ranks on each of two hosts; whole slices and streamed ones (-S
# 1M: several rounds, runs spilled to each host's -T).
case_sort() {
  mh_start 4
  gen -n 60000 --record-size 16 --key 0:u64 -o "$MH_WORK/shared/in.dat"
  place_input in.dat
  same "1 2" shared 2 --record-size 16 --key 0:u64
  same "1 2 3" local 3 --record-size 16 --key 0:u64
  same "1 2 3 4" shared 4 -S 1M --record-size 16 --key 0:u64
  same "1 2 3 4" local 4 -u --record-size 16 --key 0:u64
  same "1:2 2:2" local 2 -S 1M --record-size 16 --key 0:u64
  same "3:2 4:2" shared 2 -r --record-size 16 --key 0:u64
  # --output-parts: each rank puts its part in the shared directory.
  "$gsort" --backend cpu --record-size 16 --key 0:u64 "$(input_path shared in.dat)" -o "$MH_WORK/ref"
  ranks "1 2 3" "$gsort" --backend cpu -T "$MH_WORK/temp" --record-size 16 --key 0:u64 "$(input_path local in.dat)" \
    --output-parts -o "$MH_WORK/out/parts" || fail "--output-parts on 3 hosts: exit $?"
  [ "$(ls "$MH_WORK/out/parts" | wc -l)" = 3 ] || fail "--output-parts: $(ls "$MH_WORK/out/parts")"
  cat "$MH_WORK/out/parts"/part-* | cmp -s "$MH_WORK/ref" - || fail "--output-parts: differs from one process"
  rm -r "$MH_WORK/out/parts"
  no_leftovers
  # Shared memory is for ranks of one host: asked for across hosts, refused.
  refused "1 2" "--exchange shm needs every rank on one host (1 of 2 here)" "$gsort" --backend cpu \
    -T "$MH_WORK/temp" --exchange shm --record-size 16 --key 0:u64 "$(input_path shared in.dat)" -o "$MH_WORK/out/sorted"
  refused "1:2 2:2" "--exchange shm needs every rank on one host (2 of 4 here)" "$gsort" --backend cpu \
    -T "$MH_WORK/temp" --exchange shm --record-size 16 --key 0:u64 "$(input_path local in.dat)" -o "$MH_WORK/out/sorted"
}

# Text lines across hosts, in both layouts: each rank routes its slice on
# its host, the lines move through MPI between hosts (marks, a byte a line,
# between ranks of one host), each sorts its key range.
case_lines() {
  mh_start 3
  gen -n 40000 --format csv -o "$MH_WORK/shared/in.dat"
  place_input in.dat
  same "1 2" shared 2 -t, -k2,2 -k3,3n
  grep -q "^gsort: exchange: text lines through MPI$" "$MH_WORK/err" || fail "hosts '1 2': $(grep exchange: "$MH_WORK/err")"
  same "1 2 3" local 3 -u -t, -k2,2
  same "1:2 2:1" local 2 -S 1M -s -t, -k2,2
  grep -q "^gsort: exchange: marks, a byte a line, between ranks of one host; text lines between hosts" \
    "$MH_WORK/err" || fail "hosts '1:2 2:1': $(grep exchange: "$MH_WORK/err")"
  same "1:2 2:2" shared 2 -t, -k2,2 -k1,1n
}

# A rank that fails on one host stops every rank on every host; one killed
# there (SIGKILL) leaves what the next gsort on that host removes.
case_fail() {
  mh_start 3
  gen -n 200000 --record-size 16 --key 0:u64 -o "$MH_WORK/shared/in.dat"
  place_input in.dat
  local phase
  for phase in exchange sort write; do
    GSORT_TEST_FAIL_RANK=1 GSORT_TEST_FAIL_AT=$phase refused "1 2 3" \
      "rank 1: test hook: rank 1 fails in the $phase phase" -x GSORT_TEST_FAIL_RANK -x GSORT_TEST_FAIL_AT "$hooks" \
      --backend cpu -S 1M -T "$MH_WORK/temp" --record-size 16 --key 0:u64 "$(input_path local in.dat)" \
      -o "$MH_WORK/out/sorted"
  done
  # Killed mid-exchange, its received records in files in host 2's -T.
  local rc=0 start=$SECONDS
  echo old >"$MH_WORK/out/sorted"
  GSORT_TEST_FAIL_RANK=1 GSORT_TEST_FAIL_AT=exchange-kill ranks "1 2 3" -x GSORT_TEST_FAIL_RANK -x GSORT_TEST_FAIL_AT \
    "$hooks" --backend cpu -S 1M -T "$MH_WORK/temp" --record-size 16 --key 0:u64 "$(input_path shared in.dat)" \
    -o "$MH_WORK/out/sorted" >/dev/null 2>&1 || rc=$?
  # mpirun ends the job (exit 137: a rank was killed), not the timeout.
  [ "$rc" != 0 ] && [ "$rc" != 124 ] && [ $((SECONDS - start)) -lt "${MH_TIMEOUT:-90}" ] ||
    fail "rank 1 killed: mpirun exit $rc after $((SECONDS - start)) s"
  [ "$(cat "$MH_WORK/out/sorted")" = old ] || fail "rank 1 killed: the old output changed"
  [ -n "$(find "$MH_WORK/hosts/h2/temp" -mindepth 1 -maxdepth 1 -name 'gsort.*')" ] ||
    fail "the killed rank left nothing in its host's -T: $(ls -a "$MH_WORK/hosts/h2/temp")"
  # The next run on the same hosts removes it, as one process does.
  same "1 2 3" shared 3 --record-size 16 --key 0:u64
}

# A host whose -T fills: every rank exits 2, one line naming the full -T.
case_full() {
  mh_start 3
  gen -n 200000 --record-size 16 --key 0:u64 -o "$MH_WORK/shared/in.dat"
  place_input in.dat
  mh_temp_size 2 128k
  refused "1 2 3" "rank 1: cannot write $MH_WORK/temp/.*: no space left on device" "$gsort" --backend cpu -S 1M -T "$MH_WORK/temp" \
    --record-size 16 --key 0:u64 "$(input_path local in.dat)" -o "$MH_WORK/out/sorted"
  # The same job with room everywhere sorts (the failure was the room's).
  mh_temp_size 2 256m
  same "1 2 3" local 3 -S 1M --record-size 16 --key 0:u64
}

# change_between_samples FILE: one gensort record changed in place, size
# and modification time kept, in the middle of a 10 MB file, between the
# blocks the ranks' identities sample (src/distributed/ranks/input_identity.h).
change_between_samples() {
  touch -r "$1" "$MH_WORK/time"
  printf 'XXXXXXXX' | dd of="$1" bs=1 seek=$((49999 * 100)) conv=notrunc status=none
  touch -r "$MH_WORK/time" "$1"
}

# Ranks that disagree, on their own hosts: a node-local copy of other
# content (only between the sampled blocks: caught by the whole content's
# hashes), of another size, or other options on one host.
case_mismatch() {
  mh_start 3
  gen -n 100000 --format gensort --seed 5 -o "$MH_WORK/shared/in.dat"
  place_input in.dat
  local in=$MH_WORK/local/in.dat out=$MH_WORK/out/sorted
  change_between_samples "$MH_WORK/hosts/h3/local/in.dat"
  cmp -s "$MH_WORK/shared/in.dat" "$MH_WORK/hosts/h3/local/in.dat" && fail "host 3's copy was not changed"
  refused "1 2 3" "rank 2: input '$in' differs from rank 0's (content of bytes " "$gsort" --backend cpu \
    -T "$MH_WORK/temp" --format gensort "$in" -o "$out"
  head -c 7500000 "$MH_WORK/shared/in.dat" >"$MH_WORK/hosts/h2/local/in.dat"
  refused "1 2 3" "rank 1: input '$in' differs from rank 0's (size 7500000 against 10000000)" "$gsort" \
    --backend cpu -T "$MH_WORK/temp" --format gensort "$in" -o "$out"
  # Other options on host 2 (mpirun's A : B, each side on its host).
  place_input in.dat
  rm -rf "$MH_WORK/exits" && mkdir "$MH_WORK/exits"
  local rc=0
  mh_mpirun --mca orte_abort_on_non_zero_status 0 --host "$(mh_ip 1)" -np 1 "$here/exit_recorder.sh" "$MH_WORK/exits" \
    "$gsort" --backend cpu -T "$MH_WORK/temp" --format gensort "$in" -o "$out" : --host "$(mh_ip 2)" -np 1 \
    "$here/exit_recorder.sh" "$MH_WORK/exits" "$gsort" --backend cpu -T "$MH_WORK/temp" -u --format gensort "$in" \
    -o "$out" 2>"$MH_WORK/err" || rc=$?
  [ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "-u on host 2 only: timed out (a hang)"
  [ "$(cat "$MH_WORK/exits"/*)" = "$(printf '2\n2')" ] || fail "-u on host 2 only: exits $(cat "$MH_WORK/exits"/*)"
  grep -q "^gsort: rank 1: option --unique differs from rank 0's (on against off)" "$MH_WORK/err" ||
    fail "-u on host 2 only: $(head -c 800 "$MH_WORK/err")"
  [ ! -e "$out" ] || fail "-u on host 2 only: output written"
  no_leftovers
}

# Ranks that Open MPI places on one host but that each see a /dev/shm of
# their own (private_shm_rank.sh): the shared-memory exchange is for ranks
# that share one, so auto takes MPI and sorts as one process, and
# --exchange shm is refused on every rank. Beside them, the same two ranks
# sharing their host's /dev/shm take it.
case_shm_per_rank() {
  mh_start 1
  gen -n 200000 --record-size 16 --key 0:u64 -o "$MH_WORK/shared/in.dat"
  local args=(--backend cpu -T "$MH_WORK/temp" --record-size 16 --key 0:u64 "$MH_WORK/shared/in.dat")
  "$gsort" --backend cpu --record-size 16 --key 0:u64 "$MH_WORK/shared/in.dat" -o "$MH_WORK/ref"
  ranks "1:2" "$here/private_shm_rank.sh" "$MH_WORK/rank-shm" "$gsort" "${args[@]}" -v -o "$MH_WORK/out/sorted" \
    2>"$MH_WORK/err" || fail "a /dev/shm per rank: exit $?: $(head -c 800 "$MH_WORK/err")"
  cmp -s "$MH_WORK/ref" "$MH_WORK/out/sorted" || fail "a /dev/shm per rank: differs from one process"
  grep -qE "^gsort: exchange: .* through MPI$" "$MH_WORK/err" ||
    fail "a /dev/shm per rank: not through MPI: $(grep 'exchange:' "$MH_WORK/err")"
  rm "$MH_WORK/out/sorted"
  [ -z "$(find "$MH_WORK/rank-shm" -mindepth 2)" ] || fail "left in a rank's /dev/shm: $(find "$MH_WORK/rank-shm")"
  no_leftovers
  refused "1:2" "--exchange shm needs every rank on one host, sharing one /dev/shm (these ranks see several)" \
    "$here/private_shm_rank.sh" "$MH_WORK/rank-shm" "$gsort" "${args[@]}" --exchange shm -o "$MH_WORK/out/sorted"
  [ -z "$(find "$MH_WORK/rank-shm" -mindepth 2)" ] || fail "left in a rank's /dev/shm: $(find "$MH_WORK/rank-shm")"
  ranks "1:2" "$gsort" "${args[@]}" -v -o "$MH_WORK/out/sorted" 2>"$MH_WORK/err" ||
    fail "one /dev/shm: exit $?: $(head -c 800 "$MH_WORK/err")"
  cmp -s "$MH_WORK/ref" "$MH_WORK/out/sorted" || fail "one /dev/shm: differs from one process"
  grep -qE "^gsort: exchange: .* through shared memory" "$MH_WORK/err" ||
    fail "one /dev/shm: not through shared memory: $(grep 'exchange:' "$MH_WORK/err")"
  rm "$MH_WORK/out/sorted"
  no_leftovers
}

"case_$case"
echo "ok: multihost $case"
