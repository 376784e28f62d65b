// The comparison of two lines, GNU sort's in the C locale: key by key
// (text bytewise, -f folded to upper case, -d and -i on the bytes they
// keep, -n by value, -h by unit then value, -g as strtold reads it, -M by
// month, -R by keyed digest, -V by version, 'r' reversed; line_image.h
// and line_orders.h say how), and when every key ties, unless -s or -u, the
// whole lines bytewise (a line sorts before its extensions), reversed by
// the global -r.
#pragma once

#include <cstdint>
#include <vector>

#include "src/keys/line_spec.h"

namespace gsort {

class LineComparator {
 public:
  explicit LineComparator(const LineSpec& spec) : spec_(spec), keys_(spec.images()) {
    if (spec_.last_resort()) keys_.pop_back();
  }

  // <0, 0, >0 as line a (alen bytes, no terminator) sorts before, with,
  // after line b.
  int compare(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) const;
  // Only the keys (no last-resort comparison): whether -u takes two lines
  // for duplicates is compare() == 0, which is this when there are keys.
  int compare_keys(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) const;

  const LineSpec& spec() const { return spec_; }

 private:
  LineSpec spec_;
  std::vector<LineImageSpec> keys_;  // each key with the separator and the seed
};

// One key's comparison of two keys' bytes, found in their lines already,
// where the key reads a transformed copy (a collated key, 'g', 'R', 'V'):
// <0, 0, >0, its 'r' applied.
int compare_transformed_key(const LineImageSpec& spec, const uint8_t* a, uint64_t alen, const uint8_t* b,
                            uint64_t blen);

// Bytewise, a shorter prefix first: <0, 0, >0.
int compare_line_bytes(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen);

}  // namespace gsort
