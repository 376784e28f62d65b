// The bits of a word that vary over a chunk, taken out and packed: where a
// bit is the same in every line's word, it never decides an order, so a
// sort by the varying bits alone (in their order) sorts as the word does.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace gsort {

// Whether the processor gathers bits in one instruction (BMI2's pext),
// and fast: Zen 1 and 2 run it as microcode, slower than gathering runs.
bool fast_bit_gather();
// pext(w, mask): the bits of w under mask, packed in order at the bottom.
// Only where fast_bit_gather().
uint64_t gather_bits(uint64_t w, uint64_t mask);

class BitSqueeze {
 public:
  BitSqueeze() = default;
  // The top varying bits of a word, at most `most` of them.
  BitSqueeze(uint64_t varying, int most) {
    for (int b = 63; b >= 0 && bits_ < most; --b) {
      if (((varying >> b) & 1) == 0) continue;
      mask_ |= uint64_t{1} << b;
      if (!runs_.empty() && runs_.back().first == b + 1) {
        --runs_.back().first;
        ++runs_.back().second;
      } else {
        runs_.emplace_back(b, 1);
      }
      ++bits_;
    }
    // Text squeezed to seven bits a byte is eight runs a word: one
    // instruction gathers them.
    gather_ = runs_.size() > 2 && fast_bit_gather();
  }
  int bits() const { return bits_; }
  uint64_t mask() const { return mask_; }  // the kept bits of a word
  // The kept bits of w, in order, as a number of bits() bits.
  uint64_t operator()(uint64_t w) const { return gather_ ? gather_bits(w, mask_) : by_runs(w); }
  // The same, run by run (what the gather must equal).
  uint64_t by_runs(uint64_t w) const {
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
  uint64_t mask_ = 0;                      // the kept bits
  int bits_ = 0;
  bool gather_ = false;
};

}  // namespace gsort
