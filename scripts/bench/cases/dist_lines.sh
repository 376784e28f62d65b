# Text lines under mpirun (issue 55): mpirun -np N gsort-mpi against one
# process, outputs identical, on several shapes; and the floor under any
# run of N ranks on this host: mpirun's launch alone, gsort-mpi's ranks
# with nothing to sort, and N one-process sorts of the input's N pieces
# started at once, each on its share of the cores (no exchange at all).
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case dist-lines "lines under mpirun -np N (DIST_RANKS, default 2), marks and --exchange mpi, against one process: 2 GB of log lines whole (with the floor: mpirun's launch, ranks with nothing to sort, N pieces sorted at once), of CSV by -t, -k2,2 -k1,1n and -u -t, -k2,2, and of few leading keys and long common prefixes (csv_shapes.py)"

# dist_lines_table NAME TITLE IN ARGS...: one process, then mpirun -np N
# (on one host the ranks send marks, a byte a line), then the same with
# --exchange mpi (the lines themselves through MPI), each output identical
# to one process's.
dist_lines_table() {
  local name=$1 title=$2 in=$3 ref=$run_dir/ref out=$run_dir/out
  shift 3
  table "$name" "$title" "$(stat -c %s "$in")"
  tbl_inputs=("$in")
  gsort_row "one process" "$ref" "@GSORT@ $(q -T "$run_dir/tmp" "$@" "$in") -o @OUT@"
  gsort_row "mpirun -np $dist_n" "$out" "$(q "${dist_mpi[@]}" -np "$dist_n") @GSORT_MPI@ \
$(q -T "$run_dir/tmp" "$@" "$in") -o @OUT@" "$(q same_output "$ref" "$out")"
  gsort_row "mpirun -np $dist_n, --exchange mpi" "$out" "$(q "${dist_mpi[@]}" -np "$dist_n") @GSORT_MPI@ \
$(q --exchange mpi -T "$run_dir/tmp" "$@" "$in") -o @OUT@" "$(q same_output "$ref" "$out")"
}

# The floor rows of the logs table: IN cut into N pieces at line ends.
dist_lines_floor() {
  local in=$1 k cores=$(($(nproc) / dist_n)) all='' waits=true
  : >"$run_dir/empty"
  split -n "l/$dist_n" -d -a 3 "$in" "$run_dir/piece."
  for ((k = 0; k < dist_n; k++)); do
    all+="$(q "$bin/gsort" --parallel "$cores" -T "$run_dir/tmp" "$run_dir/piece.$(printf %03d "$k")" \
      -o "$run_dir/floor.$k") & p$k=\$!; "
    waits+=" && wait \$p$k"
  done
  row "floor: mpirun -np $dist_n true" "" "$(q "${dist_mpi[@]}" -np "$dist_n" true)"
  row "floor: ranks with nothing to sort" "$run_dir/out.empty" \
    "$(q "${dist_mpi[@]}" -np "$dist_n" "$bin/gsort-mpi" "$run_dir/empty" -o "$run_dir/out.empty")"
  row "floor: $dist_n pieces at once, --parallel $cores each" "" "$all$waits"
  # The same pieces, one to each rank mpirun starts: its launch and the
  # sorts, nothing else (one-process gsort refuses to run as a rank, so it
  # is shown no launcher).
  # shellcheck disable=SC2016  # the rank's own $OMPI_COMM_WORLD_RANK
  local piece='printf -v k %03d "$OMPI_COMM_WORLD_RANK"; exec env -u OMPI_COMM_WORLD_SIZE -u PMIX_RANK -u PMI_SIZE'
  piece+=" -u PMI_RANK -u MPI_LOCALNRANKS $(q "$bin/gsort" --parallel "$cores" -T "$run_dir/tmp")"
  piece+=" $(q "$run_dir/piece.")\$k -o $(q "$run_dir/floor.")\$k"
  row "floor: mpirun -np $dist_n, a piece sorted by each" "" "$(q "${dist_mpi[@]}" -np "$dist_n" bash -c "$piece")"
}

# DIST_LINES_TABLES picks tables (default "logs csv csv-u few prefix").
dist_lines_wants() { [[ " ${DIST_LINES_TABLES:-logs csv csv-u few prefix} " == *" $1 "* ]]; }

case_dist_lines() {
  command -v mpirun >/dev/null || die "dist-lines: no mpirun"
  [[ -x $bin/gsort-mpi ]] || die "dist-lines: no $bin/gsort-mpi (a build where CMake found Open MPI)"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
  dist_n=${DIST_RANKS:-2}
  read -r -a dist_mpi <<<"mpirun ${MPIRUN_ARGS:---bind-to none --oversubscribe}"
  [[ $(id -u) != 0 ]] || dist_mpi+=(--allow-run-as-root)
  mkdir -p "$run_dir/tmp"
  if dist_lines_wants logs; then
    records_of 2 159
    data_lines logs "$records"
    dist_lines_table logs "$(gb "$records" 159) GB of log lines, whole" "$data"
    dist_lines_floor "$data"
    run_table
  fi
  records_of 2 31
  if dist_lines_wants csv || dist_lines_wants csv-u; then data_lines csv "$records"; fi
  if dist_lines_wants csv; then
    dist_lines_table csv "$(gb "$records" 31) GB of CSV, -t, -k2,2 -k1,1n" "$data" -t, -k2,2 -k1,1n
    run_table
  fi
  if dist_lines_wants csv-u; then
    dist_lines_table csv-u "$(gb "$records" 31) GB of CSV, -u -t, -k2,2" "$data" -u -t, -k2,2
    run_table
  fi
  local shape bytes
  bytes=$(awk -v g="${SIZE_GB:-2}" 'BEGIN { printf "%d", g * 1e9 }')
  for shape in few prefix; do
    dist_lines_wants "$shape" || continue
    data_shape "$shape" "$bytes"
    dist_lines_table "$shape" "$(gb "$bytes" 1) GB of CSV lines ($shape), -t, -k2,2 -k1,1n" "$data" -t, -k2,2 -k1,1n
    run_table
  done
}
