#!/usr/bin/env bash
# check_test_names.sh CTEST BUILD_DIR: every test that ctest lists has a
# readable name (issue 32: skipped GPU tests were listed as
# "GetParam() = 32-byte object <79-77 43-89 ...>"). A parameterised suite
# names its parameters (INSTANTIATE_TEST_SUITE_P's name generator) and
# gtest_discover_tests leaves gtest's printout of the value out.
set -euo pipefail
ctest=$1 build=$2
names=$("$ctest" --test-dir "$build" -N)
if bad=$(grep -E 'GetParam\(\)|-byte object|[0-9A-F]{2}-[0-9A-F]{2} [0-9A-F]{2}-' <<< "$names"); then
  echo "FAIL: tests with unreadable names:" >&2
  echo "$bad" | head -20 >&2
  exit 1
fi
echo "$(grep -c 'Test *#' <<< "$names") tests, every name readable"
