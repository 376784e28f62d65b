#!/usr/bin/env bash
# check_mpi_split.sh GSORT GSORT_MPI: gsort runs as one process and never
# loads MPI (issue 32: the package depended on libopenmpi3), while
# gsort-mpi, from the same objects, has the distributed driver; each one's
# --version says which it is.
set -euo pipefail
gsort=$1 gsort_mpi=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
# Each output is taken whole before it is searched: `cmd | grep -q` under
# pipefail fails when grep stops reading early and cmd dies of SIGPIPE.
libs=$(ldd "$gsort")
if grep -i mpi <<<"$libs"; then fail "$gsort loads MPI"; fi
grep -qx 'MPI: no' <<<"$("$gsort" --version)" || fail "$gsort --version does not say 'MPI: no'"
grep -q libmpi <<<"$(ldd "$gsort_mpi")" || fail "$gsort_mpi does not load libmpi"
grep -q '^MPI: yes' <<<"$("$gsort_mpi" --version)" || fail "$gsort_mpi --version does not say 'MPI: yes'"
echo "gsort: one process, no libmpi; gsort-mpi: the distributed driver"
