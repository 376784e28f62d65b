#!/usr/bin/env bash
# One process against np 2 (shm, parts and one file) on one host, rounds interleaved (BIN, default .devcarry).
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
w=/tmp/ratio; mkdir -p $w
for set in gensort u64; do
  if [ $set = gensort ]; then gen=(--format gensort --records 120000000); args=(--format gensort);
  else gen=(--record-size 16 --key 0:u64 --records 500000000); args=(--record-size 16 --key 0:u64); fi
  ${BIN:-.devcarry}/gsort-gen "${gen[@]}" --seed 13 -o $w/in
  ${BIN:-.devcarry}/gsort "${args[@]}" $w/in -o $w/ref; rm -f $w/ref
  echo "== $set"
  for round in 1 2 3; do
    for c in one parts file; do
      rm -rf $w/out $w/parts; sync
      s=$(date +%s.%N)
      case $c in
        one) ${BIN:-.devcarry}/gsort "${args[@]}" $w/in -o $w/out ;;
        parts) mpirun --allow-run-as-root --bind-to none -np 2 ${BIN:-.devcarry}/gsort "${args[@]}" $w/in -o $w/parts --output-parts ;;
        file) mpirun --allow-run-as-root --bind-to none -np 2 ${BIN:-.devcarry}/gsort "${args[@]}" $w/in -o $w/out ;;
      esac
      e=$(date +%s.%N)
      awk -v c=$c -v r=$round -v s=$s -v e=$e 'BEGIN{printf "  round %d %-6s %.3f s\n", r, c, e-s}'
    done
  done
  rm -rf $w/in $w/out $w/parts
done
