#!/usr/bin/env bash
# Open MPI's remote launcher for the simulated hosts of hosts.sh, given to
# mpirun as plm_rsh_agent in place of ssh: `host_agent.sh HOST COMMAND...`,
# HOST one of hosts.sh's addresses (10.77.0.1N is host N). Like ssh, it runs
# COMMAND (words joined, through sh) on that host: in its network namespace
# (ip netns exec), in a mount and UTS namespace of its own (unshare), where
# the host's own directories are bound over /dev/shm and over the paths that
# every host names alike (-T's and the node-local inputs'), and its hostname
# is mhN. Everything the orted starts (the ranks) inherits all of it.
# hosts.sh also calls it to run a command on a host: `host_agent.sh HOST
# --argv ARGS...` runs ARGS as they are, without sh.
# Environment (exported by hosts.sh): MH_ID, the namespaces' prefix, and
# MH_WORK, the harness's directory.
set -euo pipefail

if [ "${1:-}" = --inside ]; then
  # In the host's fresh namespaces (mounts private to them): its views.
  host=$2
  shift 2
  dir=$MH_WORK/hosts/h$host
  mount --bind "$dir/shm" /dev/shm
  mount --bind "$dir/temp" "$MH_WORK/temp"
  mount --bind "$dir/local" "$MH_WORK/local"
  hostname "mh$host"
  exec "$@"
fi

target=$1
shift
case $target in
  10.77.0.1[1-9]) host=${target#10.77.0.1} ;;
  *) echo "host_agent.sh: not a simulated host: $target" >&2; exit 255 ;;
esac
if [ "${1:-}" = --argv ]; then
  shift
  command=("$@")
else
  # What ssh does with its command words: one line for the remote shell.
  command=(sh -c "$*")
fi
exec ip netns exec "$MH_ID-h$host" unshare --mount --uts --propagation private -- "$(readlink -f "$0")" --inside "$host" "${command[@]}"
