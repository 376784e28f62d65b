#!/usr/bin/env bash
# exit_recorder.sh DIR COMMAND...: a rank's wrapper that runs COMMAND and
# keeps its exit status in DIR/rank-R (R: the MPI rank), so that a test
# sees every rank's own exit, where mpirun reports only one.
set -euo pipefail
dir=$1
shift
rc=0
"$@" || rc=$?
echo "$rc" >"$dir/rank-${OMPI_COMM_WORLD_RANK:?not started by Open MPI}"
exit "$rc"
