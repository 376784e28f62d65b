// -V: version order, as GNU sort compares keys with gnulib's filenvercmp
// in coreutils 9.2 and later (the C locale's letters and digits): runs of digits
// compare as numbers, other bytes letters first, then the rest, '~'
// before everything, even the end; file suffixes (".tar.gz": each a '.',
// a letter or '~', letters, digits and '~') are compared only when the
// rest ties; "." and ".." and then other names with a leading '.' first.
#pragma once

#include <cstdint>

namespace gsort {

// <0, 0, >0 as version a (alen bytes) sorts before, with, after b.
int compare_versions(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen);

}  // namespace gsort
