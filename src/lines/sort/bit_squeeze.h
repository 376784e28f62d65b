// The bits of a word that vary over a chunk, taken out and packed: where a
// bit is the same in every line's word, it never decides an order, so a
// sort by the varying bits alone (in their order) sorts as the word does.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace gsort {

class BitSqueeze {
 public:
  BitSqueeze() = default;
  // The top varying bits of a word, at most `most` of them.
  BitSqueeze(uint64_t varying, int most) {
    for (int b = 63; b >= 0 && bits_ < most; --b) {
      if (((varying >> b) & 1) == 0) continue;
      if (!runs_.empty() && runs_.back().first == b + 1) {
        --runs_.back().first;
        ++runs_.back().second;
      } else {
        runs_.emplace_back(b, 1);
      }
      ++bits_;
    }
  }
  int bits() const { return bits_; }
  // The kept bits of w, in order, as a number of bits() bits.
  uint64_t operator()(uint64_t w) const {
    uint64_t d = 0;
    for (const auto& [shift, width] : runs_) {
      d = (width == 64 ? 0 : d << width) | ((w >> shift) & (width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1));
    }
    return d;
  }
  // The kept bits at the top of 32.
  uint32_t top32(uint64_t w) const { return static_cast<uint32_t>((*this)(w) << (32 - bits_)); }

 private:
  std::vector<std::pair<int, int>> runs_;  // (lowest bit, width), from the top
  int bits_ = 0;
};

}  // namespace gsort
