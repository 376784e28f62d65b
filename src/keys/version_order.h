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

// -V's image head (src/keys/line_image.h), at most `most` bytes: a class
// byte (the empty key 0, "." 1, ".." 2, other names starting with '.' 3,
// the rest 4), then the key's prefix (its file suffix cut) as
// compare_versions reads it: each run of non-digits as the ranks of its
// bytes ('~' 0x01, letters 0x10 + c - 'A', other bytes 0xFF then the byte)
// closed by 0x02; each run of digits as its length without leading zeros
// (one byte; 0xFF, and the head ends, from 254 digits) then the digits;
// past the key's end, empty runs (0x02 0x00) to the head's size, as
// compare_versions reads a key that has ended. Where two heads differ, the first
// differing byte orders the keys as compare_versions does; equal heads (a
// head cut at `most` among them) leave them to it. Returns the length.
uint64_t version_image(const uint8_t* key, uint64_t len, uint8_t* out, uint64_t most);

}  // namespace gsort
