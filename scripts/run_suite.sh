#!/usr/bin/env bash
# Runs ctest on BUILD_DIR with the rest of the arguments, then fails if the
# suite left any of its scratch directories behind in ${TMPDIR:-/tmp}: each
# test's TempDir (tests/support/temp_dir.h) is named gsort-test.RUN.XXXXXX,
# RUN this run's tag, so that directories of other suites running on the
# same machine at the same time are never counted.
#
#   scripts/run_suite.sh BUILD_DIR [CTEST ARGUMENT]...
set -euo pipefail
build_dir=${1:?usage: run_suite.sh BUILD_DIR [CTEST ARGUMENT]...}
shift
export GSORT_TEST_RUN="run$$x$RANDOM"
status=0
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" "$@" || status=$?
left=$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name "gsort-test.$GSORT_TEST_RUN.*" 2>/dev/null)
if [ -n "$left" ]; then
  echo "run_suite.sh: the tests left their scratch directories behind:" >&2
  echo "$left" >&2
  rm -rf $left
  exit 1
fi
exit "$status"
