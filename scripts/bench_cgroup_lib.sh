# Sourced by the benchmark scripts that run gsort in a memory cgroup (as
# root): a cgroup with a memory limit, commands run inside it, and caches
# emptied between runs.
#   cg_create LIMIT     make the cgroup (v2: /sys/fs/cgroup/$CG_NAME, the
#                       recipe of issue 12; v1: a child of this shell's
#                       memory cgroup) with memory.max (v1
#                       memory.limit_in_bytes) LIMIT, e.g. 3G
#   cg_run CMD...       run CMD inside it (a shell that moves itself in, then execs)
#   cg_peak             the cgroup's peak memory in bytes since the last cg_reset_peak (v1; v2 memory.peak)
#   cg_destroy          remove it (the trap of the calling script)
#   uncache MODE FILE...  MODE all: sync, then echo 3 > /proc/sys/vm/drop_caches
#                       (the whole machine); files: only FILEs' pages
#                       (dd iflag=nocache count=0), for a shared machine
CG_NAME=${CG_NAME:-gsort-bench}
cg_dir=

cg_create() {
  local limit=$1
  if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
    cg_dir=/sys/fs/cgroup/$CG_NAME
    mkdir -p "$cg_dir"
    echo "$limit" >"$cg_dir/memory.max"
    [[ -f $cg_dir/memory.swap.max ]] && echo 0 >"$cg_dir/memory.swap.max"
  else
    local self
    self=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
    cg_dir=/sys/fs/cgroup/memory${self%/}/$CG_NAME
    mkdir -p "$cg_dir"
    echo "$limit" >"$cg_dir/memory.limit_in_bytes"
  fi
  echo "cgroup: $cg_dir, memory limit $limit" >&2
}

cg_run() {
  bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg_dir" "$@"
}

cg_reset_peak() {
  if [[ -f $cg_dir/memory.max_usage_in_bytes ]]; then echo 0 >"$cg_dir/memory.max_usage_in_bytes"; fi
  if [[ -f $cg_dir/memory.peak ]]; then echo 0 >"$cg_dir/memory.peak" 2>/dev/null || true; fi
}

cg_peak() {
  if [[ -f $cg_dir/memory.peak ]]; then cat "$cg_dir/memory.peak"; else cat "$cg_dir/memory.max_usage_in_bytes"; fi
}

cg_destroy() {
  [[ -n $cg_dir && -d $cg_dir ]] || return 0
  # Whatever is still charged there (page cache) moves to the parent.
  rmdir "$cg_dir" 2>/dev/null || { sleep 1; rmdir "$cg_dir" 2>/dev/null || echo "cgroup $cg_dir left behind" >&2; }
}

uncache() {
  local mode=$1 f
  shift
  if [[ $mode == all ]]; then
    sync
    echo 3 >/proc/sys/vm/drop_caches
  else
    sync
    for f in "$@"; do [[ -f $f ]] && dd if="$f" iflag=nocache count=0 status=none; done
  fi
}
