#!/usr/bin/env bash
# Installs gsort the way the README's "Install" shows: from a release build
# of its own, ${INSTALL_BUILD_DIR:-build-install}, never from the test build
# (build/, which scripts/test.sh compiles for one GPU architecture).
#   scripts/install.sh             build, then `cmake --install` into ${PREFIX:-/usr/local}
#   scripts/install.sh --deb       build the Debian packages and install them (dpkg -i, under /usr):
#                                  gsort, libgsort0, libgsort-dev, and gsort-mpi where MPI is built
#   scripts/install.sh --package   build the Debian packages only, and print their paths
#   scripts/install.sh --uninstall remove what the other modes installed
# More arguments go to CMake (e.g. -DGSORT_ENABLE_CUDA=OFF). The build is
# Release, with the default GPU architectures where nvcc is found
# (cmake/cuda_architectures.cmake), MPI where Open MPI is installed
# (GSORT_WITH_MPI=1 installs it), the man pages, the system's shared
# libraries (GSORT_STATIC=OFF), the library in lib/<multiarch>, and no tests
# or benchmarks. Installing runs as root: through sudo where the user is not.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=
case ${1:-} in
  --deb | --package | --uninstall) mode=$1; shift ;;
  --*) echo "usage: scripts/install.sh [--deb | --package | --uninstall] [CMAKE_OPTION...]" >&2; exit 2 ;;
esac
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
build=${INSTALL_BUILD_DIR:-build-install}
packages=(gsort gsort-mpi libgsort-dev libgsort0)

created_dirs=$build/install_created_dirs.txt  # the folders `cmake --install` made, for --uninstall

if [ "$mode" = --uninstall ]; then
  if [ -f "$build/install_manifest.txt" ]; then
    xargs -d '\n' $sudo rm -f -- < "$build/install_manifest.txt"
    # and the folders of gsort's own that are left empty (libexec/gsort, include/gsort, ...),
    # and those the install made (share/zsh/site-functions, ...), deepest first, where empty
    { xargs -d '\n' -n1 dirname < "$build/install_manifest.txt" | grep '/gsort$' || true
      if [ -f "$created_dirs" ]; then cat "$created_dirs"; fi; } | sort -ru \
      | xargs -r -d '\n' $sudo rmdir --ignore-fail-on-non-empty --
    echo "install.sh: removed the $(wc -l < "$build/install_manifest.txt") files of $build/install_manifest.txt"
    $sudo rm -f "$build/install_manifest.txt" "$created_dirs"
    if command -v ldconfig >/dev/null; then $sudo ldconfig; fi
  fi
  installed=()
  for p in "${packages[@]}"; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then installed+=("$p"); fi
  done
  if [ ${#installed[@]} -gt 0 ]; then $sudo dpkg -r "${installed[@]}"; fi
  exit 0
fi

scripts/install_deps.sh
# -z now (with the linker's default relro): what Debian's hardening asks of
# programs; a link flag, so that the objects stay the test build's (ccache).
configure=(-DCMAKE_BUILD_TYPE=Release -DGSORT_BUILD_TESTS=OFF -DGSORT_BUILD_BENCHMARKS=OFF -DGSORT_STATIC=OFF
           "-DCMAKE_EXE_LINKER_FLAGS=-Wl,-z,relro,-z,now")
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || true)
if [ -n "$multiarch" ]; then configure+=("-DCMAKE_INSTALL_LIBDIR=lib/$multiarch"); fi
configure+=("$@")
# An existing folder is configured again with the same options, so that it
# finds what was installed since (Open MPI, nvcc).
if [ -f "$build/CMakeCache.txt" ]; then cmake -S . -B "$build" "${configure[@]}" >/dev/null; fi
BUILD_DIR=$build scripts/build.sh "${configure[@]}"

if [ -z "$mode" ]; then
  prefix=${PREFIX:-/usr/local}
  case $prefix in /*) ;; *) prefix=$PWD/$prefix ;; esac
  prefix=${prefix%/}
  existed=$(find "$prefix" -type d 2>/dev/null | LC_ALL=C sort || true)
  $sudo cmake --install "$build" --prefix "$prefix"
  # The folders that hold what was installed, and did not exist before.
  xargs -d '\n' -n1 dirname < "$build/install_manifest.txt" | sort -u | while IFS= read -r dir; do
    while [ "${#dir}" -gt "${#prefix}" ] && [ "${dir#"$prefix"/}" != "$dir" ]; do echo "$dir"; dir=$(dirname "$dir"); done
  done | LC_ALL=C sort -u | LC_ALL=C comm -23 - <(echo "$existed") > "$created_dirs"
  # The dynamic linker finds libgsort.so.0 under /usr/local through its cache.
  if grep -q '/libgsort\.so\.0$' "$build/install_manifest.txt" && command -v ldconfig >/dev/null; then $sudo ldconfig; fi
  echo "install.sh: gsort installed under $prefix"
  exit 0
fi

rm -rf "$build/package"
(cd "$build" && cpack -B package >/dev/null)
debs=("$build"/package/*.deb)
if [ "$mode" = --package ]; then
  printf '%s\n' "${debs[@]}"
  exit 0
fi
# gsort-mpi depends on mpirun (openmpi-bin), which a build needs not have.
if ls "$build"/package/gsort-mpi_*.deb >/dev/null 2>&1; then GSORT_WITH_MPI=1 scripts/install_deps.sh; fi
# --path-include: the man pages, also where the image's dpkg configuration
# leaves out /usr/share/man (Docker's slim images do).
$sudo dpkg -i --path-include='/usr/share/man/man1/gsort*' "${debs[@]}"
echo "install.sh: installed $(cd "$build/package" && echo *.deb)"
