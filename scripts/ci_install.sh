#!/usr/bin/env bash
# CI: runs the README's install commands as written (its ```sh blocks marked
# <!-- readme-test: install -->, taken from README.md itself by
# tests/readme/readme_test.sh --print, so that the README cannot drift from
# what works), one block after another, each on a machine without gsort, as
# root and without sudo (issue 32: `sudo dpkg -i` failed there). After each,
# it checks what a user gets, and removes it (scripts/install.sh --uninstall):
#   - `man -w gsort`, `man -w gsort-gen`, and `man gsort` shows --record-size
#   - bash completes `gsort --ke<TAB>` to --key
#   - `gsort --version`: in a CUDA build, the default GPU architectures
#     (cmake/cuda_architectures.cmake), not the test build's one
#   - gsort sorts what gsort-gen makes, .gz in and .xz out, checked with -c
#   - examples/ and the headers' example build against the installed library
#   - scripts/install.sh --uninstall leaves /usr/local's folders as they were
#   - from the packages: /usr/bin/gsort is the one-process program until
#     gsort-mpi is installed, then `mpirun -np 2 gsort` sorts as one process
#     does; removing gsort-mpi gives the one-process gsort back
# Both blocks share build-install/ (one CUDA build); scripts/ci_package.sh
# then checks the packages the second one made.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "ci_install.sh: run as root (CI is root; the README's commands are run as written)" >&2; exit 2; }
start=$SECONDS
fail() { echo "FAIL: $*" >&2; exit 1; }

for p in gsort gsort-mpi libgsort-dev libgsort0; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then fail "package $p is installed already"; fi
done
if command -v gsort >/dev/null; then fail "a gsort is installed already: $(command -v gsort)"; fi

work=$(mktemp -d "${TMPDIR:-/tmp}/gsort-ci-install.XXXXXX")
# man-db's dpkg trigger rebuilds the whole man index on every install and
# removal (~40 s each here); `man -w` and `man` do not need the index, so
# the trigger is off while this script runs, and on again after.
man_db_flag=/var/lib/man-db/auto-update
man_db_paused=no
if [ -e "$man_db_flag" ]; then rm -f "$man_db_flag"; man_db_paused=yes; fi
cleanup() {
  rm -rf "$work"
  scripts/install.sh --uninstall >/dev/null 2>&1 || true
  if [ "$man_db_paused" = yes ]; then touch "$man_db_flag"; fi
}
trap cleanup EXIT

bash tests/readme/readme_test.sh --print install README.md > "$work/commands.sh"
if grep -n '\bsudo\b' "$work/commands.sh"; then fail "the README's install commands use sudo, which a root container lacks"; fi

# The GPU architectures gsort --version must list in a CUDA build.
nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
default_archs=""
if [ -x "$nvcc" ]; then default_archs=$(cmake -DCMAKE_CUDA_COMPILER="$nvcc" -P cmake/cuda_architectures.cmake 2>&1); fi

check_installed() {
  local where=$1 gsort version
  gsort=$(command -v gsort) || fail "no gsort on PATH after $where"
  echo "== $where: $gsort -> $(readlink -f "$gsort")"
  version=$(gsort --version)
  echo "$version"
  if [ -n "$default_archs" ]; then
    grep -qF "GPU architectures $default_archs)" <<< "$version" \
      || fail "gsort --version does not list the default GPU architectures ($default_archs)"
  fi
  for page in gsort gsort-gen; do
    man -w "$page" >/dev/null || fail "man -w $page: $(man -w "$page" 2>&1)"
    echo "man -w $page: $(man -w "$page")"
  done
  grep -q -- '--record-size' <<<"$(man gsort 2>/dev/null)" || fail "man gsort shows no --record-size"
  [ "$(bash tests/packaging/bash_complete.sh --installed "gsort --ke")" = --key ] \
    || fail "bash: 'gsort --ke<TAB>' did not give --key"
  echo "bash: gsort --ke<TAB> gives --key"

  gsort-gen --format gensort --records 200000 --seed 14 -o "$work/sample.bin"
  gzip -c "$work/sample.bin" > "$work/sample.gz"
  gsort --format gensort "$work/sample.gz" -o "$work/sorted.xz"
  xz -dc "$work/sorted.xz" | gsort -c --format gensort
  cmp <(xz -dc "$work/sorted.xz") <(gsort --format gensort "$work/sample.bin") \
    || fail "sample.gz sorted into sorted.xz differs from sample.bin sorted"
  echo "gsort sorted sample.gz into sorted.xz; gsort -c: sorted"
  bash tests/packaging/check_library_install.sh "$(dirname "$(dirname "$gsort")")" cmake --installed
}

# After the packages: the alternatives for /usr/bin/gsort, and mpirun.
check_packages() {
  dpkg-query -W gsort libgsort0 libgsort-dev
  if ! dpkg-query -W -f='${Status}' gsort-mpi 2>/dev/null | grep -q "ok installed"; then
    grep -qx 'MPI: no' <<<"$(gsort --version)" || fail "without gsort-mpi, gsort --version does not say 'MPI: no'"
    return
  fi
  grep -q '^MPI: yes' <<<"$(gsort --version)" || fail "with gsort-mpi installed, gsort is not its program"
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  gsort-gen --format gensort --records 100000 --seed 3 -o "$work/in.dat"
  mpirun --oversubscribe --mca btl self,vader --mca btl_vader_single_copy_mechanism none -np 2 \
    gsort --format gensort "$work/in.dat" -o "$work/mpi.dat"
  cmp "$work/mpi.dat" <(/usr/libexec/gsort/gsort --format gensort "$work/in.dat") \
    || fail "mpirun -np 2 gsort differs from one process"
  echo "mpirun -np 2 gsort: the same output as one process"
  dpkg -r gsort-mpi >/dev/null
  grep -qx 'MPI: no' <<<"$(gsort --version)" || fail "after dpkg -r gsort-mpi, gsort is not the one-process program"
  echo "dpkg -r gsort-mpi: gsort is the one-process program again"
}

block=0
while IFS= read -r -d '' text; do
  block=$((block + 1))
  where=$(head -1 <<< "$text" | sed 's/^# //')
  echo "== ci_install: $where, as written ($((SECONDS - start)) s so far):"
  sed 1d <<< "$text"
  find /usr/local -type d | sort > "$work/dirs.before"
  bash -euo pipefail -c "$text" > "$work/block.log" 2>&1 || { tail -40 "$work/block.log"; fail "$where failed"; }
  hash -r
  check_installed "$where"
  if dpkg-query -W -f='${Status}' gsort 2>/dev/null | grep -q "ok installed"; then check_packages; fi
  scripts/install.sh --uninstall >/dev/null
  hash -r
  if command -v gsort >/dev/null; then fail "scripts/install.sh --uninstall left $(command -v gsort)"; fi
  find /usr/local -type d | sort > "$work/dirs.after"
  diff "$work/dirs.before" "$work/dirs.after" >&2 \
    || fail "after scripts/install.sh --uninstall, /usr/local's folders differ from before the install (> : left behind)"
done < <(awk '/^# README line / && NR > 1 { printf "%c", 0 } { print }' "$work/commands.sh"; printf '\0')
[ "$block" -ge 2 ] || fail "the README has $block install blocks; expected the cmake --install and the .deb ones"
echo "ci_install: the README's $block install blocks worked as written ($((SECONDS - start)) s)"
