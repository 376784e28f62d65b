# The distributed sort: mpirun -np N gsort against one process.
# shellcheck shell=bash disable=SC2034,SC2154  # variables shared with scripts/bench.sh

bench_case dist "mpirun -np N gsort (RANKS: 1 2 4) through each EXCHANGES (shm mpi, and nccl with 2+ GPUs), into one file and --output-parts (SHAPES), against one process; SETS: gensort (12 GB) u64 (8 GB)"

# MPIRUN_ARGS (default --bind-to none --oversubscribe) go to every mpirun;
# NCCL's NVLink multicast stays off (NCCL_NVLS_ENABLE=0), as gsort sets it.
case_dist() {
  command -v mpirun >/dev/null || die "dist: no mpirun"
  [[ -x $bin/gsort-mpi ]] && "$bin/gsort-mpi" --version | grep -q "^MPI: yes" \
    || die "dist: no $bin/gsort-mpi (gsort with MPI: a build where CMake found Open MPI)"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
  local -a mpi ranks exchanges shapes sets
  read -r -a mpi <<<"mpirun ${MPIRUN_ARGS:---bind-to none --oversubscribe}"
  [[ $(id -u) != 0 ]] || mpi+=(--allow-run-as-root)
  read -r -a ranks <<<"${RANKS:-1 2 4}"
  local default_exchanges="shm mpi"
  ((gpus < 2)) || default_exchanges+=" nccl"
  read -r -a exchanges <<<"${EXCHANGES:-$default_exchanges}"
  read -r -a shapes <<<"${SHAPES:-file parts}"
  read -r -a sets <<<"${SETS:-gensort u64}"
  local set n ex shape size
  for set in "${sets[@]}"; do
    local -a layout
    case $set in
      gensort) records_of 12 100; data_gensort "$records"; layout=(--format gensort) size=100 ;;
      u64) records_of 8 16; data_u64 "$records"; layout=(--record-size 16 --key 0:u64) size=16 ;;
      *) die "dist: SETS are gensort and u64" ;;
    esac
    local in=$data ref=$run_dir/ref args
    args=$(q "${layout[@]}" "$in")
    table "$set" "mpirun -np N gsort against one process, $(gb "$records" "$size") GB of $set records" \
      "$((records * size))"
    tbl_inputs=("$in")
    gsort_row "one process" "$ref" "@GSORT@ $args -o @OUT@"
    for n in "${ranks[@]}"; do
      for ex in "${exchanges[@]}"; do
        [[ $ex != nccl ]] || ((n <= gpus)) || continue  # a GPU for each rank
        for shape in "${shapes[@]}"; do
          local out=$run_dir/out parts=''
          [[ $shape == file ]] || out=$run_dir/parts parts=' --output-parts'
          gsort_row "np $n, $ex, $shape" "$out" "$(q "${mpi[@]}" -np "$n") @GSORT_MPI@ --exchange $ex $args \
--stats @STATS@ -o @OUT@$parts" "$(q same_output "$ref" "$out")"
        done
        ((n > 1)) || break  # one rank exchanges nothing: one exchange is enough
      done
    done
    run_table
  done
}
