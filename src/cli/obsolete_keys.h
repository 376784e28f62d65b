// sort's obsolete key syntax, +POS1 [-POS2]: fields and characters counted
// from 0, as sort takes it, turned into the -k key it stands for. Whether
// a +POS1 operand is a key at all is sort's rule: always where
// _POSIX2_VERSION (in the environment) is not 200112 to 200808, else only
// when a -POS2 follows it, or one did follow an earlier +POS1, and
// POSIXLY_CORRECT is not set; an operand that is no valid +POS1 is an
// input file.
#pragma once

#include <optional>
#include <string>

namespace gsort {

struct ObsoleteKey {
  std::string spec;     // the -k argument it stands for ("2,2n")
  std::string warning;  // --debug's note: "obsolescent key '+1 -2' used; consider '-k 2,2' instead"
  bool took_minus = false;  // -POS2 (the next word) is part of it
};

// Whether a +POS1 alone (no -POS2 after it) is a key: sort's
// _POSIX2_VERSION rule.
bool obsolete_keys_by_default();

// The key that `plus` ("+1.2n") and, where it is -DIGITS..., `next` make;
// none when `plus` is no valid +POS1. Throws UsageError in sort's words for
// a malformed -POS2.
std::optional<ObsoleteKey> parse_obsolete_key(const std::string& plus, const std::string* next);

// Whether `word` reads as -POS2 (a '-' then a digit).
bool looks_like_minus_pos(const std::string& word);

}  // namespace gsort
