#!/usr/bin/env bash
# Installs what is missing, builds gsort and gsort-gen (no tests, no
# benchmarks) in ${BUILD_DIR:-build-release} for this machine, says whether
# GPU support was built, generates 1,000,000 gensort records (100 MB, ASCII
# variant), sorts them, verifies the result against GNU sort's stable sort
# on the same 10-byte key, and ends with where the programs are and the line
# that puts them on PATH.
#
# For this machine: with an NVIDIA GPU (nvidia-smi -L lists one) and nvcc,
# the kernels are compiled for that GPU alone (CMAKE_CUDA_ARCHITECTURES=
# native); with no GPU, without CUDA at all, which is several times quicker
# than compiling kernels nothing here can run. scripts/install.sh builds for
# every default GPU architecture instead. Arguments are passed to CMake when
# the build folder is new, after these, so they win
# (e.g. -DGSORT_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
bin=${BUILD_DIR:-build-release}

configure=(-DGSORT_BUILD_TESTS=OFF -DGSORT_BUILD_BENCHMARKS=OFF)
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [ "${gpus:-0}" -gt 0 ]; then
  echo "quickstart: $gpus NVIDIA GPU(s) found: GPU code is built for this machine's GPU only (CUDA architectures: native)"
  configure+=(-DCMAKE_CUDA_ARCHITECTURES=native)
else
  echo "quickstart: no NVIDIA GPU found (nvidia-smi -L lists none): building without CUDA; gsort sorts on the CPU cores"
  configure+=(-DGSORT_ENABLE_CUDA=OFF)
fi
BUILD_DIR=$bin scripts/build.sh "${configure[@]}" "$@"  # "$@": more CMake options
"$bin/gsort" --version

work=$(mktemp -d "${TMPDIR:-/tmp}/gsort-quickstart.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$bin/gsort-gen" --format gensort --ascii --records 1000000 --seed 42 -o "$work/sample.bin"
time "$bin/gsort" --format gensort "$work/sample.bin" -o "$work/sorted.bin"

"$bin/gsort" -c --format gensort "$work/sorted.bin"
# Independent reference: GNU sort, stable, keyed on the first 10 bytes.
LC_ALL=C sort -s -t "$(printf '\t')" -k1.1,1.10 "$work/sample.bin" > "$work/reference.bin"
cmp "$work/sorted.bin" "$work/reference.bin"
echo "quickstart: sorted $(( $(stat -c %s "$work/sorted.bin") / 100 )) records; output matches GNU sort's stable order"

where=$(cd "$bin" && pwd)
cat <<EOF

gsort and gsort-gen are in $where.
To run them as \`gsort\` in this shell (the README's examples do):

  export PATH="$where:\$PATH"

Next: the README's "Using gsort", and \`$bin/gsort --help\`. To install them with
their man pages and completions: scripts/install.sh (a longer build, for every GPU).
EOF
