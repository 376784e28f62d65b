# The line mixes of issue 53, GNU sort only where asked, so that one device
# call holds them all: every mix of `lines` (but 12 GB) and of `keyed` (2 GB
# of each shape), each timed against cp of its input, gsort on the CPU and
# (with a GPU) --backend gpu and the default, auto. The CPU's output must be
# in order (gsort -c) and the others', and OLD's, identical to it. The
# mixes named in GNU_MIXES also get a row of GNU sort (same output); the
# `lines` and `keyed` cases time GNU sort on every mix.
# With GPU_IDLE=1 each row waits until no gsort-teardown helper of the row
# before holds the GPU: every GPU row then meets a GPU that no process
# holds (without it, a GPU row right after another may find it still
# initialized: 0.03-0.08 s less on an H100 host, 2026-12-06).
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case line-mixes "the 2 GB line mixes of lines and keyed (MIXES picks of logs k3n k2k1n k4k3nrs ascii few few3 dec prefix many dups; GNU sort for those in GNU_MIXES): cp, gsort --backend cpu, --backend gpu and auto with a GPU, OLD's; outputs identical; GPU_IDLE=1: every row starts with the GPU held by no process"

# Waits (up to 10 s) until no gsort-teardown helper is left holding the GPU.
gpu_idle_before() {
  local tries=500
  while pgrep -x gsort-teardown >/dev/null && ((tries-- > 0)); do sleep 0.02; done
}

# mix_table NAME IN ARGS...: cp, gsort --backend cpu ARGS, and --backend gpu
# ARGS and the default (auto) with a GPU, on IN; GNU sort ARGS where
# GNU_MIXES names NAME.
mix_table() {
  local name=$1 in=$2 cpu=$run_dir/out.cpu other=$run_dir/out.other
  shift 2
  table "$name" "$name: $(stat -c %s "$in") bytes, gsort $*" "$(stat -c %s "$in")"
  tbl_inputs=("$in")
  [[ ${GPU_IDLE:-0} != 1 ]] || tbl_before=gpu_idle_before
  row cp "$run_dir/out.cp" "$(q cp "$in" "$run_dir/out.cp")"
  gsort_row "gsort --backend cpu" "$cpu" "@GSORT@ $(q --backend cpu -S 50% -T "$run_dir/tmp" "$@" "$in") -o @OUT@" \
    "$(check_sorted "$@" "$cpu")"
  if ((gpus)); then
    gsort_row "gsort --backend gpu" "$other" "@GSORT@ $(q --backend gpu -S 50% -T "$run_dir/tmp" "$@" "$in") -o @OUT@" \
      "$(q same_output "$cpu" "$other")"
    gsort_row "gsort (auto)" "$other" "@GSORT@ $(q -S 50% -T "$run_dir/tmp" "$@" "$in") -o @OUT@" \
      "$(q same_output "$cpu" "$other")"
  fi
  if [[ " ${GNU_MIXES:-} " == *" $name "* ]]; then
    row "GNU sort" "$other" "$(q env LC_ALL=C sort --parallel="$(nproc)" -S 50% -T "$run_dir/tmp" "$@" -o "$other" "$in")" \
      "$(q same_output "$cpu" "$other")"
  fi
  run_table
}

case_line_mixes() {
  local mixes=" ${MIXES:-logs k3n k2k1n k4k3nrs ascii few few3 dec prefix many dups} " csv='' shape
  mkdir -p "$run_dir/tmp"
  if [[ $mixes == *" logs "* ]]; then
    records_of 2 159
    data_lines logs "$records"
    mix_table logs "$data"
  fi
  if [[ $mixes == *" k3n "* || $mixes == *" k2k1n "* || $mixes == *" k4k3nrs "* ]]; then
    records_of 2 31
    data_lines csv "$records"
    csv=$data
  fi
  [[ $mixes != *" k3n "* ]] || mix_table k3n "$csv" -t, -k3,3n
  [[ $mixes != *" k2k1n "* ]] || mix_table k2k1n "$csv" -t, -k2,2 -k1,1n
  [[ $mixes != *" k4k3nrs "* ]] || mix_table k4k3nrs "$csv" -t, -k4,4 -k3,3nr -s
  if [[ $mixes == *" ascii "* ]]; then
    records_of 2 100
    data_gensort "$records" ascii
    mix_table ascii "$data"
  fi
  for shape in few dec prefix many dups; do
    [[ $mixes == *" $shape "* || ($shape == few && $mixes == *" few3 "*) ]] || continue
    data_shape "$shape" "$(awk -v g="${SIZE_GB:-2}" 'BEGIN { printf "%d", g * 1e9 }')"
    [[ $mixes != *" $shape "* ]] || mix_table "$shape" "$data" -t, -k2,2 -k1,1n
    [[ $shape != few || $mixes != *" few3 "* ]] || mix_table few3 "$data" -t, -k2,2 -k3,3n -k1,1
  done
}
