#!/usr/bin/env bash
# check_mpi_split.sh GSORT GSORT_MPI: gsort runs as one process and never
# loads MPI (issue 32: the package depended on libopenmpi3), while
# gsort-mpi, from the same objects, has the distributed driver; each one's
# --version says which it is.
set -euo pipefail
gsort=$1 gsort_mpi=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
if ldd "$gsort" | grep -i mpi; then fail "$gsort loads MPI"; fi
"$gsort" --version | grep -qx 'MPI: no' || fail "$gsort --version does not say 'MPI: no'"
ldd "$gsort_mpi" | grep -q libmpi || fail "$gsort_mpi does not load libmpi"
"$gsort_mpi" --version | grep -q '^MPI: yes' || fail "$gsort_mpi --version does not say 'MPI: yes'"
echo "gsort: one process, no libmpi; gsort-mpi: the distributed driver"
