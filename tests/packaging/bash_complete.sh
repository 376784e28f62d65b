#!/usr/bin/env bash
# Prints, one a line, what bash would offer for <TAB> at the end of LINE.
#   bash_complete.sh COMPLETION_FILE LINE   sources that file
#   bash_complete.sh --installed LINE       loads gsort's completion the way an
#                                           interactive shell does, through
#                                           bash-completion's on-demand loader
# COMP_WORDS is split as readline splits it: at blanks, and with ':' and '='
# (from COMP_WORDBREAKS) as words of their own.
set -euo pipefail
source_arg=$1 line=$2
command=${line%% *}

if [ "$source_arg" = --installed ]; then
  source /usr/share/bash-completion/bash_completion
  _completion_loader "$command" || true
else
  source "$source_arg"
fi
spec=$(complete -p "$command" 2>/dev/null) || { echo "no completion for $command" >&2; exit 1; }
function_name=$(sed -n 's/.*-F \([^ ]*\).*/\1/p' <<< "$spec")

COMP_WORDS=()
for blank_word in $line; do
  while [[ $blank_word =~ ^([^:=]*)([:=])(.*)$ ]]; do
    [ -n "${BASH_REMATCH[1]}" ] && COMP_WORDS+=("${BASH_REMATCH[1]}")
    COMP_WORDS+=("${BASH_REMATCH[2]}")
    blank_word=${BASH_REMATCH[3]}
  done
  [ -n "$blank_word" ] && COMP_WORDS+=("$blank_word")
done
if [[ $line == *" " ]]; then COMP_WORDS+=(""); fi
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMP_LINE=$line
COMP_POINT=${#line}
COMPREPLY=()
"$function_name" "$command" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]:-}"
if [ ${#COMPREPLY[@]} -gt 0 ]; then printf '%s\n' "${COMPREPLY[@]}"; fi
