#!/usr/bin/env bash
# check_man_pages_render.sh PAGE...: each man page renders without a groff
# warning, as lintian's groff-message check reads it (a line of text that
# starts with a dot, ".gz ...", is taken for an unknown macro). Skips (77)
# where man is not installed.
set -euo pipefail
command -v man >/dev/null || { echo "man is not installed: skipped"; exit 77; }
failed=0
for page in "$@"; do
  warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
  if [ -n "$warnings" ]; then
    echo "$page: $warnings" >&2
    failed=1
  fi
done
[ "$failed" -eq 0 ] && echo "$# man page(s) render without warnings"
exit "$failed"
