#!/usr/bin/env bash
# Runs the shell blocks of README.md as a user would, so that every command
# the README shows works as shown (issue 28).
#
#   readme_test.sh README BUILD_DIR CMAKE     (README_TEST_SHOW=1: print each block's output)
#
# BUILD_DIR is installed (`cmake --install`) into a scratch prefix first; its
# bin/ comes first on PATH, and CMAKE_PREFIX_PATH and PKG_CONFIG_PATH name
# it, as after the README's "Install".
#
# The convention, for whoever edits the README:
# - Every ```sh block runs, in order, each in a fresh empty directory, under
#   `bash -euo pipefail`: any command that fails fails the test (write
#   `cmd || echo "exit $?"` for a command that is meant to fail).
# - An HTML comment on the line right before a block's opening fence says
#   something about that block:
#     <!-- readme-test: setup -->         runs before every later ```sh block,
#                                         in its directory (the sample files)
#     <!-- readme-test: skip (REASON) --> not run; the reason is required
#     <!-- readme-test: needs mpi -->     runs where mpirun is installed and
#                                         gsort was built with MPI, else skipped
#     <!-- readme-test: needs gpu -->     runs where gsort has GPU support and
#                                         nvidia-smi lists a GPU, else skipped
#     <!-- readme-test: file NAME -->     any language: the block's text is
#                                         written as NAME into the directory of
#                                         the next ```sh block
#     <!-- readme-test: quick start -->   runs where gsort is not on PATH, in a
#                                         directory whose build-release/ holds
#                                         the build's programs, as after
#                                         scripts/quickstart.sh: the block must
#                                         put them on PATH itself (`gsort` must
#                                         then be build-release/gsort)
#     <!-- readme-test: install -->       not run here (it installs gsort
#                                         system-wide): scripts/ci_install.sh
#                                         runs it in CI, as root, and checks
#                                         what it installed
#   Any other readme-test comment, or one not followed by a fence, is an error.
# - Blocks in other languages (cpp, cmake, text) are not run; ```bash,
#   ```shell and ```console are refused, so nothing that looks runnable is
#   passed over silently.
# - The README has at most 300 lines (issue 28).
# Under Open MPI as root (CI), the environment allows root and
# oversubscription, as tests/distributed does; the commands stay as shown.
#
#   readme_test.sh --print MARKER README
# prints the ```sh blocks marked MARKER (e.g. install), in order, each after
# a comment with its line: scripts/ci_install.sh runs the README's install
# commands so, as written.
set -euo pipefail
usage="usage: readme_test.sh README BUILD_DIR CMAKE | readme_test.sh --print MARKER README"
print_marker=""
if [ "${1:-}" = --print ]; then
  print_marker=${2:?$usage}
  readme=${3:?$usage}
else
  readme=${1:?$usage}
  build=${2:?$usage}
  cmake_bin=${3:?$usage}
fi
max_lines=300

fail() { echo "FAIL: $*" >&2; exit 1; }

lines=$(wc -l < "$readme")
[ "$lines" -le "$max_lines" ] || fail "$readme has $lines lines (at most $max_lines)"

work=$(mktemp -d "${TMPDIR:-/tmp}/gsort-readme.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Splits the README into blocks: blocks/N.txt (the text), blocks/N.meta
# (line, language, marker), in order.
mkdir "$work/blocks"
awk -v dir="$work/blocks" '
  function bad(msg) { printf "README line %d: %s\n", NR, msg > "/dev/stderr"; failed = 1 }
  BEGIN { n = 0; inside = 0; marker = ""; marker_line = 0 }
  inside {
    if ($0 ~ /^```[ \t]*$/) { inside = 0; close(file); next }
    print > file; next
  }
  /^<!-- readme-test:.*-->[ \t]*$/ {
    if (marker != "") bad("two readme-test comments in a row")
    marker = $0; sub(/^<!-- readme-test:[ \t]*/, "", marker); sub(/[ \t]*-->[ \t]*$/, "", marker)
    marker_line = NR; next
  }
  /readme-test/ { bad("a readme-test comment must be alone on its line: <!-- readme-test: ... -->") }
  /^```/ {
    lang = substr($0, 4); gsub(/[ \t]/, "", lang)
    n++; file = sprintf("%s/%03d.txt", dir, n); printf "" > file
    printf "%d\t%s\t%s\n", NR, lang, marker > sprintf("%s/%03d.meta", dir, n)
    close(sprintf("%s/%03d.meta", dir, n))
    marker = ""; inside = 1; next
  }
  {
    if (marker != "") { bad("the readme-test comment of line " marker_line " is not followed by a code block"); marker = "" }
  }
  END {
    if (inside) bad("a code block is not closed")
    if (marker != "") bad("the last readme-test comment is not followed by a code block")
    exit failed
  }
' "$readme" || fail "$readme does not follow the convention (see $0)"

if [ -n "$print_marker" ]; then
  printed=0
  for meta in "$work"/blocks/*.meta; do
    IFS=$'\t' read -r line lang marker < "$meta"
    [ "$lang" = sh ] && [ "$marker" = "$print_marker" ] || continue
    echo "# README line $line"
    cat "${meta%.meta}.txt"
    printed=$((printed + 1))
  done
  [ "$printed" -gt 0 ] || fail "$readme has no \`\`\`sh block marked '$print_marker'"
  exit 0
fi

prefix=$work/prefix
# The test build installs only with GSORT_INSTALL_TEST_BUILD=1 (cmake/install.cmake).
GSORT_INSTALL_TEST_BUILD=1 "$cmake_bin" --install "$build" --prefix "$prefix" > "$work/install.log" \
  || { cat "$work/install.log"; fail "cmake --install $build"; }
plain_path=$PATH  # for the quick start's block, which puts gsort on PATH itself
export PATH="$prefix/bin:$(dirname "$cmake_bin"):$PATH"
export CMAKE_PREFIX_PATH="$prefix" PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
mkdir "$work/tmp"
export TMPDIR=$work/tmp

version=$(gsort --version)
have_mpi=no have_gpu=no
if grep -q '^MPI: yes' <<< "$version" && command -v mpirun > /dev/null; then have_mpi=yes; fi
if grep -q '^GPU support: built' <<< "$version" && grep -q '^GPU' <<< "$(nvidia-smi -L 2> /dev/null)"; then have_gpu=yes; fi

ran=0 skipped=0
setup=()           # the setup blocks seen so far
declare -A files=()  # NAME -> block file, for the next sh block
for meta in "$work"/blocks/*.meta; do
  IFS=$'\t' read -r line lang marker < "$meta"
  text=${meta%.meta}.txt
  where="README line $line"
  case $marker in
    '' | setup | 'needs mpi' | 'needs gpu' | install | 'quick start') ;;
    skip\ \(*\)) ;;
    skip*) fail "$where: a skip needs its reason: <!-- readme-test: skip (why) -->" ;;
    file\ *)
      name=${marker#file }
      [[ $name =~ ^[A-Za-z0-9._-]+$ ]] || fail "$where: bad file name '$name'"
      files[$name]=$text
      continue ;;
    *) fail "$where: unknown readme-test comment '$marker'" ;;
  esac
  case $lang in
    sh) ;;
    bash | shell | console | zsh) fail "$where: a \`\`\`$lang block; write \`\`\`sh (run by this test) or mark it" ;;
    *)
      [ -z "$marker" ] || fail "$where: '$marker' on a \`\`\`$lang block (only \`\`\`sh blocks run)"
      continue ;;
  esac
  reason=""
  case $marker in
    skip*) reason=${marker#skip } ;;
    install) reason="(installs system-wide: scripts/ci_install.sh runs it)" ;;
    'needs mpi') [ "$have_mpi" = yes ] || reason="(needs mpirun and a gsort built with MPI)" ;;
    'needs gpu') [ "$have_gpu" = yes ] || reason="(needs a GPU and a gsort built with CUDA)" ;;
  esac
  if [ -n "$reason" ]; then
    echo "SKIP $where $reason"
    skipped=$((skipped + 1))
    files=()
    continue
  fi
  dir=$work/run-$line
  mkdir "$dir"
  for name in "${!files[@]}"; do cp "${files[$name]}" "$dir/$name"; done
  files=()
  script=$work/run-$line.sh
  run_path=$PATH
  {
    echo 'set -euo pipefail'
    for s in "${setup[@]}"; do cat "$s"; done
    cat "$text"
    if [ "$marker" = 'quick start' ]; then
      echo '[ "$(command -v gsort)" = "$PWD/build-release/gsort" ] || { echo "gsort is not build-release/gsort: $(command -v gsort)"; exit 1; }'
    fi
  } > "$script"
  if [ "$marker" = 'quick start' ]; then
    ln -s "$prefix/bin" "$dir/build-release"
    run_path=$plain_path
  fi
  start=$(date +%s.%N)
  if ! (cd "$dir" && PATH=$run_path timeout 300 bash "$script" > "$work/out" 2>&1 < /dev/null); then
    echo "--- $where, the block:" >&2
    cat "$text" >&2
    echo "--- its output:" >&2
    cat "$work/out" >&2
    fail "$where: the block failed"
  fi
  printf 'ok   %s (%.1f s)\n' "$where" "$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')"
  [ -z "${README_TEST_SHOW:-}" ] || sed 's/^/     | /' "$work/out"
  ran=$((ran + 1))
  rm -rf "$dir"
  if [ "$marker" = setup ]; then setup+=("$text"); fi
done
[ "$ran" -gt 0 ] || fail "no block of $readme ran"
echo "readme_test: $ran blocks ran, $skipped skipped"
