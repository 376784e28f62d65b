#!/usr/bin/env bash
# Installs what is missing, builds gsort, generates 1,000,000 gensort records
# (100 MB, ASCII variant), sorts them, and verifies the result against GNU
# sort's stable sort on the same 10-byte key.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh
bin=${BUILD_DIR:-build}

work=$(mktemp -d "${TMPDIR:-/tmp}/gsort-quickstart.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$bin/gsort-gen" --format gensort --ascii --records 1000000 --seed 42 -o "$work/sample.bin"
time "$bin/gsort" --format gensort "$work/sample.bin" -o "$work/sorted.bin"

"$bin/gsort" -c --format gensort "$work/sorted.bin"
# Independent reference: GNU sort, stable, keyed on the first 10 bytes.
LC_ALL=C sort -s -t "$(printf '\t')" -k1.1,1.10 "$work/sample.bin" > "$work/reference.bin"
cmp "$work/sorted.bin" "$work/reference.bin"
echo "quickstart: sorted $(( $(stat -c %s "$work/sorted.bin") / 100 )) records; output matches GNU sort's stable order"
