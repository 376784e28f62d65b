#!/usr/bin/env bash
# check_zsh_completion.sh COMPLETION_FILE: zsh parses it and it declares
# itself for gsort. Skips (77) without zsh. (Driving zsh's completion
# needs a terminal; the options are checked by check_options_documented.sh.)
set -euo pipefail
command -v zsh >/dev/null || { echo "zsh is not installed: skipped"; exit 77; }
zsh -n "$1"
head -1 "$1" | grep -qx '#compdef gsort'
echo "ok: $1 parses and is '#compdef gsort'"
