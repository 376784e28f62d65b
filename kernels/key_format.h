// How a normalised key is laid out for the GPU sort: plain data shared by
// the host code that plans device memory and the kernels.
//
// A key of `width` bytes spans `words` big-endian 8-byte words. Words
// 0 .. words-2 are stored as uint64 columns; the last word holds only
// `last_bytes` key bytes and is stored right-aligned (shifted down) in the
// narrowest type that holds it, so that its sort pass touches only the key
// bits. Keys of one word are sorted in one CUB pass; wider keys by stable
// LSD passes from the last word to the first.
#pragma once

#include <cstdint>

#include "src/keys/key_field.h"

namespace gsort::kernels {

// The element type of the last word's sort keys.
enum class WordType : uint8_t { kU16, kU32, kU64 };

// Which extraction code path a layout can use.
enum class ExtractPath : uint8_t {
  kSingleBytes,    // one raw-bytes field
  kSingleNumeric,  // one numeric field (width <= 8)
  kGeneric,        // anything: normalised_key_word per word
};

// The sort behind each pass (see GpuSortAlgorithm). gsort's sorts
// (kernels/device/sorts.h) take 32- and 64-bit keys (radix) or 64-bit keys
// (merge, rank); a pass over another key type uses CUB.
enum class PassSort : uint8_t { kAuto, kCub, kRadix, kMerge };

struct KeyFormat {
  uint32_t width = 0;       // bytes of the normalised key
  uint32_t words = 0;       // 8-byte words it spans (>= 1)
  uint32_t last_bytes = 0;  // key bytes in the last word (1..8)
  WordType last_type = WordType::kU64;
  ExtractPath path = ExtractPath::kGeneric;
  KeyField single;          // the field, for the single-field paths
  PassSort sort = PassSort::kAuto;

  // Right shift that turns the last (big-endian, zero-padded) word into the
  // right-aligned sort key.
  GSORT_HD uint32_t last_shift() const { return 64 - 8 * last_bytes; }
  GSORT_HD uint32_t last_type_bytes() const {
    return last_type == WordType::kU16 ? 2 : (last_type == WordType::kU32 ? 4 : 8);
  }
  // Bytes of one element of the sort's key double buffer.
  GSORT_HD uint32_t sort_key_bytes() const { return words > 1 ? 8 : last_type_bytes(); }
};

inline WordType word_type_for(uint32_t bytes) {
  return bytes <= 2 ? WordType::kU16 : (bytes <= 4 ? WordType::kU32 : WordType::kU64);
}

}  // namespace gsort::kernels
