#!/usr/bin/env bash
# Probe: how fast tmpfs (/dev/shm) pages fault in on this host, and what a large shared
# window costs the shm exchange (slots of 15M gensort records, GSORT_TEST_SHM_SLOT_RECORDS)
# against the default, np 2 with parts on 6 GB. BIN: a packed build (default .devcarry).
# The large-window half needs a build up to ef0d4ba: since f8f56bf's successor the hook
# only makes slots smaller (a window larger than /dev/shm's room hangs Open MPI's osc/sm).
set -u
bin=${BIN:-.devcarry}
cat /sys/kernel/mm/transparent_hugepage/shmem_enabled /sys/kernel/mm/transparent_hugepage/enabled
grep -i huge /proc/meminfo | head -3
for i in 1 2; do
  s=$(date +%s.%N); dd if=/dev/zero of=/dev/shm/probe bs=1M count=6144 status=none; e=$(date +%s.%N)
  awk -v s=$s -v e=$e 'BEGIN{printf "dd 6 GiB into /dev/shm (1 thread): %.3f s\n", e-s}'
  rm -f /dev/shm/probe
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$bin/gsort-gen" --format gensort --records 60000000 -o /tmp/p.in
"$bin/gsort" --format gensort /tmp/p.in -o /tmp/p.ref
for slot in 0 15000000 0 15000000; do
  env=(); [ $slot = 0 ] || env=(-x GSORT_TEST_SHM_SLOT_RECORDS=$slot)
  rm -rf /tmp/p.parts
  mpirun --allow-run-as-root --bind-to none "${env[@]}" -np 2 "$bin/gsort" -v --format gensort --exchange shm /tmp/p.in \
    -o /tmp/p.parts --output-parts 2>&1 | grep -E "through|rank [01]: splitters" | cut -c1-330
  cat /tmp/p.parts/part-* | cmp - /tmp/p.ref && echo same
done
rm -rf /tmp/p.in /tmp/p.ref /tmp/p.parts
