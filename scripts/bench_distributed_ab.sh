#!/usr/bin/env bash
# A/B on one host: a build before (BEFORE, default .devcarry-before) and after (BIN, default
# .devcarry), rounds interleaved; np 2 shm with --output-parts; gensort 12 GB and u64 8 GB.
# Prints wall times and each rank's phases from --stats.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
w=/tmp/ab; mkdir -p $w
phases() { python3 -c "
import json,sys
s=json.load(open('$w/stats.json'))
for r in s['per_rank']:
    p=r['phases']; print('      rank %d: classify %.2f place %.2f start %.2f allocate %.2f collectives %.2f exchange %.2f sort %.2f write %.2f release %.2f total %.2f' % (r['rank'],p['classify_s'],p['place_s'],p['start_s'],p['allocate_s'],p['exchange_wait_s'],p['exchange_s'],p['order_s'],p['part_write_s'],p['release_s'],p['total_s']))
"; }
for set in gensort u64; do
  if [ $set = gensort ]; then gen=(--format gensort --records 120000000); args=(--format gensort);
  else gen=(--record-size 16 --key 0:u64 --records 500000000); args=(--record-size 16 --key 0:u64); fi
  ${BIN:-.devcarry}/gsort-gen "${gen[@]}" --seed 13 -o $w/in
  ${BIN:-.devcarry}/gsort "${args[@]}" $w/in -o $w/ref
  echo "== $set"
  for round in 1 2 3; do
    for b in before after; do
      bin=${BIN:-.devcarry}/gsort; [ $b = before ] && bin=${BEFORE:-.devcarry-before}/gsort
      rm -rf $w/parts; sync
      s=$(date +%s.%N)
      mpirun --allow-run-as-root --bind-to none -np 2 $bin "${args[@]}" --exchange shm --stats $w/stats.json $w/in -o $w/parts --output-parts 2>$w/err || cat $w/err
      e=$(date +%s.%N)
      awk -v b=$b -v r=$round -v s=$s -v e=$e 'BEGIN{printf "  round %d %-6s np 2 shm parts %.3f s\n", r, b, e-s}'
      [ $round = 1 ] && { cat $w/parts/part-* | cmp -s - $w/ref && echo "    identical" || echo "    DIFFERS"; }
      phases
    done
  done
  rm -f $w/in $w/ref
done
