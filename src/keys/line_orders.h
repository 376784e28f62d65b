// GNU sort's orderings whose images the host alone computes, in the C
// locale: -g (the number strtold reads), -R (a keyed MD5 digest) and -V
// (version_order.h's head). Each reads the key as GNU sort does: after
// 'd' or 'i' drop bytes and 'f' folds the rest (transform_key).
#pragma once

#include <cstdint>
#include <string>

#include "src/keys/line_key.h"

namespace gsort {

// The key's bytes as the ordering reads them: those 'd' or 'i' keep,
// folded to upper case for 'f'. Returns a view into `buf` (or the key
// itself, when nothing changes).
struct KeyBytes {
  const uint8_t* data;
  uint64_t len;
};
KeyBytes transform_key(const LineKey& key, const uint8_t* bytes, uint64_t len, std::string& buf);

// -g's image: a class byte (no number 0, -NaN 1, NaN 2, -inf 3, negative
// 4, zero 5, positive 6, +inf 7), then for a finite number its binary
// exponent and 128 bits of its significand, complemented for a negative
// number. Equal images are equal keys. Returns the length. NaNs order as
// coreutils does since 9.2 (by "%Lf": "-nan" before "nan"); 9.1 compared
// their bytes with memcmp, padding included, which is not repeatable.
constexpr uint64_t kGeneralImageBytes = 21;
// `rules`: strtold reads in the locale's LC_NUMERIC where it has one.
uint64_t general_image(const uint8_t* key, uint64_t len, uint8_t out[kGeneralImageBytes],
                       const LocaleRules* rules = nullptr);
// Where strtold stops in key[0, len) (in the locale's LC_NUMERIC where
// `rules` have one): what -g reads, for --debug.
uint64_t general_number_end(const uint8_t* key, uint64_t len, const LocaleRules* rules = nullptr);

// -R's digest: MD5 of the 16 seed bytes, then the key.
void random_digest(const uint8_t seed[kRandomSeedBytes], const uint8_t* key, uint64_t len, uint8_t out[16]);

// The image head of a key that needs the host (line_image.h): 'g' its
// image, 'R' its digest, 'V' its version head. Returns the head's length.
uint64_t host_image_head(const LineImageSpec& spec, const uint8_t* key, uint64_t len, uint8_t* head);

}  // namespace gsort
