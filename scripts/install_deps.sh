#!/usr/bin/env bash
# Installs gsort's build dependencies on Debian/Ubuntu (as root, or with sudo).
# Does nothing when everything is already there, so it is cheap to run first.
set -euo pipefail

# The codecs: zstd directly; zlib (gzip), libbz2 and liblzma (xz) under
# Boost.Iostreams (static where GSORT_STATIC). The tools are for the tests,
# which check gsort's compressed inputs and outputs against them.
packages=(cmake ninja-build g++ libboost-program-options-dev libboost-iostreams-dev
          libzstd-dev zlib1g-dev libbz2-dev liblzma-dev zstd gzip bzip2 xz-utils
          libxxhash-dev nlohmann-json3-dev libgtest-dev universal-ctags)
# What the README promises beyond the programs: the man pages (help2man
# makes them; the build fails without it), `man gsort` (man-db), completion
# in bash (bash-completion), the library through pkg-config, and the .deb
# packages of scripts/install.sh --deb (dpkg-shlibdeps of dpkg-dev, file).
packages+=(help2man man-db bash-completion pkg-config dpkg-dev file)
# Every locale, compiled, for the tests that sort in a user's locale and
# compare with sort there (tests/lines/locale_test.cpp skips what is missing).
packages+=(locales-all)
# GSORT_WITH_MPI=1: also Open MPI, for the distributed sort (mpirun -np N
# gsort) and its tests; a build without it sorts on one process. iproute2's
# `ip netns` makes the simulated hosts of tests/distributed/multihost/.
if [ "${GSORT_WITH_MPI:-0}" = 1 ]; then packages+=(libopenmpi-dev openmpi-bin iproute2); fi
# GSORT_WITH_PLOTS=1: matplotlib, for scripts/plot_benchmarks.py (the charts
# of docs/img/); nothing else needs it.
if [ "${GSORT_WITH_PLOTS:-0}" = 1 ]; then packages+=(python3-matplotlib); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
