#!/usr/bin/env bash
# check_install_tree.sh BUILD_DIR CMAKE: `cmake --install` into an empty
# prefix puts every file where cmake/install.cmake says, and the installed
# gsort runs.
set -euo pipefail
build=$1 cmake=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
"$cmake" --install "$build" --prefix "$prefix" >/dev/null

expected=(bin/gsort bin/gsort-gen
          share/bash-completion/completions/gsort share/zsh/vendor-completions/_gsort
          share/fish/vendor_completions.d/gsort.fish
          share/doc/gsort/README.md share/doc/gsort/LICENSE share/doc/gsort/CHANGELOG.md)
if [ -f "$build/man/gsort.1" ]; then
  expected+=(share/man/man1/gsort.1 share/man/man1/gsort-gen.1)
fi
missing=0
for f in "${expected[@]}"; do
  [ -s "$prefix/$f" ] || { echo "missing after install: $f" >&2; missing=1; }
done
[ "$missing" -eq 0 ]
"$prefix/bin/gsort" --version | head -1 | grep -q '^gsort [0-9]'
echo "installed: $(cd "$prefix" && find . -type f | sort | tr '\n' ' ')"
