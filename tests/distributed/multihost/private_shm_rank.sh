#!/usr/bin/env bash
# private_shm_rank.sh DIR COMMAND...: a rank's wrapper that gives it a
# /dev/shm of its own (DIR/rank-R bound over it, in a mount namespace of its
# own), while Open MPI still places it on one host with the others: what a
# launcher does that takes several machines, or containers, for one host.
set -euo pipefail
if [ "$1" = --inside ]; then
  mount --bind "$2" /dev/shm
  shift 2
  exec "$@"
fi
dir=$1/rank-${OMPI_COMM_WORLD_RANK:?not started by Open MPI}
shift
mkdir -p "$dir"
exec unshare --mount --propagation private -- "$(readlink -f "$0")" --inside "$dir" "$@"
