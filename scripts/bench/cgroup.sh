# Sourced by scripts/bench.sh for the cases that run gsort in a memory cgroup
# (as root): a cgroup with a memory limit and commands run inside it.
#   cg_create LIMIT   make the cgroup (v2: /sys/fs/cgroup/$CG_NAME, the recipe
#                     of issue 12; v1: a child of this shell's memory cgroup)
#                     with memory.max (v1 memory.limit_in_bytes) LIMIT, e.g. 3G
#   cg_run CMD...     run CMD inside it (a shell that moves itself in, then execs)
#   cg_peak           the cgroup's peak memory in bytes (v2 memory.peak, v1
#                     memory.max_usage_in_bytes)
#   cg_destroy        remove it (also bench.sh's exit trap)
# shellcheck shell=bash
CG_NAME=${CG_NAME:-gsort-bench}
cg_dir=

cg_create() {
  local limit=$1
  if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
    cg_dir=/sys/fs/cgroup/$CG_NAME
    mkdir -p "$cg_dir"
    echo "$limit" >"$cg_dir/memory.max"
    if [[ -f $cg_dir/memory.swap.max ]]; then echo 0 >"$cg_dir/memory.swap.max"; fi
  else
    local self
    self=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
    cg_dir=/sys/fs/cgroup/memory${self%/}/$CG_NAME
    mkdir -p "$cg_dir"
    echo "$limit" >"$cg_dir/memory.limit_in_bytes"
  fi
}

cg_run() {
  bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg_dir" "$@"
}

cg_peak() {
  if [[ -f $cg_dir/memory.peak ]]; then cat "$cg_dir/memory.peak"; else cat "$cg_dir/memory.max_usage_in_bytes"; fi
}

cg_destroy() {
  [[ -n $cg_dir && -d $cg_dir ]] || return 0
  # Whatever is still charged there (page cache) moves to the parent.
  rmdir "$cg_dir" 2>/dev/null || { sleep 1; rmdir "$cg_dir" 2>/dev/null || echo "cgroup $cg_dir left behind" >&2; }
}
