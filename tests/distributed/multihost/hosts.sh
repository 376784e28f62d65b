# shellcheck shell=bash
# Simulated hosts on this machine, for the distributed sort's tests across
# hosts (multihost_test.sh sources this file). Host N (1 to 4) is a network
# namespace MH_ID-hN at 10.77.0.1N/24 with its own /dev/shm, -T directory
# and node-local inputs (host_agent.sh enters them); mpirun runs in a head
# namespace (10.77.0.1) and reaches the hosts over TCP through a bridge in
# a switch namespace, starting their orteds through host_agent.sh instead
# of ssh. Nothing of the machine's own network is touched: the bridge, the
# veths and the addresses live only in these namespaces.
#
# Each host's directories, under $MH_WORK/hosts/hN (tmpfs mounts, so that a
# host's -T can be made to fill): shm (its /dev/shm), temp (its -T) and
# local (its inputs). On every host they appear at the same paths:
# /dev/shm, $MH_WORK/temp and $MH_WORK/local; $MH_WORK/shared and
# $MH_WORK/out are one directory seen by all, as NFS would be.
#
# Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN): mh_permitted says whether
# namespaces can be made here. mh_start registers mh_stop for EXIT, INT and
# TERM, which removes every namespace, mount and file it made. Sourced by
# scripts that set -euo pipefail.

mh_agent=$(readlink -f "$(dirname "${BASH_SOURCE[0]}")/host_agent.sh")
mh_hosts=0
mh_mounts=()
mh_namespaces=()

mh_ip() { echo "10.77.0.1$1"; }

# Whether this process may make network namespaces and mounts.
mh_permitted() {
  local probe=gsmh$$-probe
  [ "$(id -u)" = 0 ] && command -v ip >/dev/null && command -v unshare >/dev/null || return 1
  ip netns add "$probe" 2>/dev/null || return 1
  ip netns del "$probe"
}

# mh_start HOSTS: makes the hosts, the switch and the head, and $MH_WORK.
mh_start() {
  mh_hosts=$1
  export MH_ID=gsmh$$ MH_WORK
  MH_WORK=$(mktemp -d /tmp/gsort-multihost.XXXXXX)
  trap mh_stop EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  mkdir "$MH_WORK/temp" "$MH_WORK/local" "$MH_WORK/shared" "$MH_WORK/out"
  mh_netns sw
  ip -n "$MH_ID-sw" link add br0 type bridge
  ip -n "$MH_ID-sw" link set br0 up
  mh_attach head 10.77.0.1
  local h
  for ((h = 1; h <= mh_hosts; h++)); do
    mh_attach "h$h" "$(mh_ip "$h")"
    mkdir -p "$MH_WORK/hosts/h$h"/{shm,temp,local}
    mh_tmpfs "$MH_WORK/hosts/h$h/shm" 64m
    mh_tmpfs "$MH_WORK/hosts/h$h/temp" 256m
  done
}

mh_netns() {
  ip netns add "$MH_ID-$1"
  mh_namespaces+=("$MH_ID-$1")
  ip -n "$MH_ID-$1" link set lo up
}

# mh_attach NAME ADDRESS: namespace NAME, its eth0 on the switch's bridge.
mh_attach() {
  mh_netns "$1"
  ip link add eth0 netns "$MH_ID-$1" type veth peer name "v$1" netns "$MH_ID-sw"
  ip -n "$MH_ID-sw" link set "v$1" master br0 up
  ip -n "$MH_ID-$1" addr add "$2/24" dev eth0
  ip -n "$MH_ID-$1" link set eth0 up
}

mh_tmpfs() {
  mount -t tmpfs -o "size=$2,mode=1777" gsort-multihost "$1"
  mh_mounts+=("$1")
}

# mh_temp_size HOST SIZE: host HOST's -T becomes SIZE large (a tmpfs's size).
mh_temp_size() { mount -o "remount,size=$2" "$MH_WORK/hosts/h$1/temp"; }

mh_stop() {
  local rc=$? ns pids m
  trap - EXIT INT TERM
  set +e
  # What a timed-out job left running in a host: ours, ended by id.
  for ns in "${mh_namespaces[@]}"; do
    pids=$(ip netns pids "$ns" 2>/dev/null)
    # shellcheck disable=SC2086  # one pid a word
    [ -z "$pids" ] || kill -KILL $pids 2>/dev/null
  done
  for ns in "${mh_namespaces[@]}"; do ip netns del "$ns" 2>/dev/null; done
  for m in "${mh_mounts[@]}"; do umount "$m" 2>/dev/null || umount -l "$m"; done
  [ -z "${MH_WORK:-}" ] || rm -rf "$MH_WORK"
  exit "$rc"
}

# on_host HOST COMMAND...: runs COMMAND on host HOST, as its ranks see it.
on_host() {
  local h=$1
  shift
  "$mh_agent" "$(mh_ip "$h")" --argv "$@"
}

# mh_hostlist SPEC: Open MPI's --host for SPEC, "1 2 3" or "1:2 2:2"
# (HOST[:SLOTS], a rank per slot).
mh_hostlist() {
  local list=() h
  for h in $1; do list+=("$(mh_ip "${h%%:*}")$([ "${h#*:}" = "$h" ] || echo ":${h#*:}")"); done
  (IFS=,; echo "${list[*]}")
}

# mh_mpirun ARGS...: mpirun in the head namespace, bounded by MH_TIMEOUT
# (seconds, default 90). Only TCP and self between ranks: vader and UCX
# would take shared memory between ranks Open MPI places on one host; the
# hosts' own /dev/shm is for gsort alone here.
mh_mpirun() {
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout -k 10 "${MH_TIMEOUT:-90}" \
    ip netns exec "$MH_ID-head" "${GSORT_MPIRUN:-mpirun}" --allow-run-as-root --oversubscribe \
    --mca plm_rsh_agent "$mh_agent" --mca plm_rsh_no_tree_spawn 1 \
    --mca oob_tcp_if_include 10.77.0.0/24 --mca btl_tcp_if_include 10.77.0.0/24 \
    --mca btl tcp,self --mca pml ob1 --mca osc '^ucx' "$@"
}
