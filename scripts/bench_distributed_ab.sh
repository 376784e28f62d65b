#!/usr/bin/env bash
# Variants of the distributed sort on one host, rounds interleaved so that
# they share the host's state: 12 GB of gensort records and 8 GB of 16-byte
# u64 records (SETS), np 2 through --exchange shm (NP ranks), medians by eye from the
# printed rounds. Each mpirun variant prints every rank's phases (--stats).
#   VARIANTS (default "one cpu parts file"):
#     one     gsort alone (the baseline)
#     before  np 2, parts, the build in BEFORE (default .devcarry-before)
#     beforefile  np 2, one output file, the build in BEFORE
#     cpu     np 2, parts, the slice partitioned on the host (GSORT_TEST_PARTITION_ON_CPU)
#     parts   np 2, --output-parts
#     file    np 2, one output file
#     filepw  np 2, one output file, ranks writing with pwrite (GSORT_TEST_OUTPUT_PWRITE), not mapped
#   BIN (default .devcarry): the build; RUNS (default 3); SETS (default "gensort u64");
#   NP (default 2): the ranks of the mpirun variants; SORT_ARGS: more gsort
#   options for every variant (e.g. "-S 3G -T /tmp/ab-temp": the streamed exchange).
# Round 1 checks every output against one process's.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bin=${BIN:-.devcarry}
w=/tmp/ab; mkdir -p $w
phases() { python3 -c "
import json,sys
s=json.load(open('$w/stats.json'))
for r in s['per_rank']:
    p=r['phases']; print('      rank %d (%s): map %.2f classify %.2f place %.2f start %.2f allocate %.2f collectives %.2f exchange %.2f sort %.2f write %.2f release %.2f total %.2f' % (r['rank'],r.get('partitioned_on','cpu'),p['map_s'],p['classify_s'],p['place_s'],p['start_s'],p['allocate_s'],p['exchange_wait_s'],p['exchange_s'],p['order_s'],p['part_write_s'],p['release_s'],p['total_s']))
"; }
np2() { mpirun --allow-run-as-root --bind-to none -np "${NP:-2}" "$@"; }
for set in ${SETS:-gensort u64}; do
  if [ $set = gensort ]; then gen=(--format gensort --records 120000000); args=(--format gensort);
  else gen=(--record-size 16 --key 0:u64 --records 500000000); args=(--record-size 16 --key 0:u64); fi
  args+=(${SORT_ARGS:-})
  $bin/gsort-gen "${gen[@]}" --seed 13 -o $w/in
  $bin/gsort "${args[@]}" $w/in -o $w/ref
  echo "== $set"
  for round in $(seq 1 ${RUNS:-3}); do
    for v in ${VARIANTS:-one cpu parts file}; do
      rm -rf $w/parts $w/out $w/stats.json; sync
      s=$(date +%s.%N)
      case $v in
        one) $bin/gsort "${args[@]}" $w/in -o $w/out ;;
        before) np2 ${BEFORE:-.devcarry-before}/gsort "${args[@]}" --exchange shm --stats $w/stats.json $w/in -o $w/parts --output-parts ;;
        beforefile) np2 ${BEFORE:-.devcarry-before}/gsort "${args[@]}" --exchange shm --stats $w/stats.json $w/in -o $w/out ;;
        cpu) GSORT_TEST_PARTITION_ON_CPU=1 np2 -x GSORT_TEST_PARTITION_ON_CPU $bin/gsort "${args[@]}" --exchange shm --stats $w/stats.json $w/in -o $w/parts --output-parts ;;
        parts) np2 $bin/gsort "${args[@]}" --exchange shm --stats $w/stats.json $w/in -o $w/parts --output-parts ;;
        file) np2 $bin/gsort "${args[@]}" --exchange shm --stats $w/stats.json $w/in -o $w/out ;;
        filepw) GSORT_TEST_OUTPUT_PWRITE=1 np2 -x GSORT_TEST_OUTPUT_PWRITE $bin/gsort "${args[@]}" --exchange shm --stats $w/stats.json $w/in -o $w/out ;;
      esac 2>$w/err || { echo "  $v failed:"; cat $w/err; }
      e=$(date +%s.%N)
      awk -v v=$v -v r=$round -v s=$s -v e=$e 'BEGIN{printf "  round %d %-6s %.3f s\n", r, v, e-s}'
      if [ $round = 1 ]; then
        if [ -d $w/parts ]; then cat $w/parts/part-* > $w/out; fi
        cmp -s $w/out $w/ref && echo "    identical" || echo "    DIFFERS"
      fi
      [ -f $w/stats.json ] && phases
    done
  done
  rm -rf $w/in $w/ref $w/out $w/parts
done
