// A collated key level in the composite image (composite_pass.h): its
// head leaves ties to strcoll, so its image cannot be taken in; but where
// its keys take few distinct byte strings in a chunk (a column of names,
// a few thousand words), each line's key is given the rank of its string
// among them in the collation's order, strings the collation finds equal
// sharing one. The rank is then exact, as a number's image is: `-t,
// -k2,2 -k1,1n` in en_US.UTF-8 over a few names is one radix sort of (rank,
// number) bits, as it is in C, not a sort by heads and then every name's
// lines refined by number.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "src/chunk_sort/lines/few_slots.h"
#include "src/keys/line_image.h"

namespace gsort {

// A level whose image is a collated key's head (a locale's text key, or
// its last resort).
inline bool ranked_by_collation(const LineImageSpec& level) { return line_order(level.key) == LineOrder::kCollate; }

// The rank of each of items [0, n) in the order compare(a, b) (<0, 0, >0)
// gives, items it finds equal sharing one: ranks[i] for item i (`order`:
// scratch). Collated keys' ranks, where different bytes may be equal.
template <typename Compare>
void rank_in_order(uint32_t n, Compare compare, std::vector<uint32_t>& order, std::vector<uint32_t>& ranks) {
  order.resize(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return compare(a, b) < 0; });
  ranks.assign(n, 0);
  uint32_t rank = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (i != 0 && compare(order[i - 1], order[i]) != 0) ++rank;
    ranks[order[i]] = rank;
  }
}

// The rank of each of `slots` (image_slot.h's of_key_bytes, in any order) in the
// level's order, equal keys one rank: ranks[i] for slots[i].
std::vector<uint32_t> collated_ranks(const LineImageSpec& level, const std::vector<Slot>& slots);

}  // namespace gsort
