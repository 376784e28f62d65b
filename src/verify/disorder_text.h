// What -c says about the first record out of order: its number (counting
// from 1), its byte offset, and both keys in hex.
#pragma once

#include <string>

#include "src/keys/key_layout.h"
#include "src/verify/sorted_check.h"

namespace gsort {

// For a result that is not sorted, e.g. "disorder at record 3 (counting
// from 1), byte offset 20: key 0a,ff sorts before the previous record's
// key 0b,00". Keys are the fields' bytes as they stand in the records, in
// hex, fields separated by ','; a key over 64 bytes shows 64 of them, from
// near the first byte where the two keys differ, and says which. `strict`
// (-c -u): equal keys are the disorder.
std::string describe_disorder(const CheckResult& r, const KeyLayout& layout, bool strict);

}  // namespace gsort
