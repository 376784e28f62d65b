#include "src/chunk_sort/lines/collated_ranks.h"

#include <cstring>

#include "src/keys/line_compare.h"
#include "src/keys/line_orders.h"

namespace gsort {
namespace {

// A slot's key bytes: FewSlots holds slots as big-endian words (the
// composite's LevelSlot reads collated_slot's bytes so), its length in the
// last byte.
struct SlotKey {
  uint8_t bytes[kSlotBytes];
  explicit SlotKey(const Slot& s) {
    for (uint64_t w = 0; w < kSlotWords; ++w) {
      const uint64_t raw = __builtin_bswap64(s.w[w]);
      std::memcpy(bytes + 8 * w, &raw, 8);
    }
  }
  uint64_t length() const { return bytes[kSlotBytes - 1]; }
};

}  // namespace

std::vector<uint32_t> collated_ranks(const LineImageSpec& level, const std::vector<Slot>& slots) {
  // Each key's head once (the first level of its image, zero-padded):
  // where heads differ they order the keys, so strcoll runs only between
  // keys whose heads are equal.
  std::vector<SlotKey> keys;
  keys.reserve(slots.size());
  for (const Slot& s : slots) keys.emplace_back(s);
  std::vector<uint8_t> heads(slots.size() * kImageHeadBytes, 0);
  for (size_t i = 0; i < keys.size(); ++i) {
    host_image_head(level, keys[i].bytes, keys[i].length(), &heads[i * kImageHeadBytes]);
  }
  const bool reverse = level.key.reverse;
  const auto compare = [&](uint32_t a, uint32_t b) {
    const int d = std::memcmp(&heads[a * kImageHeadBytes], &heads[b * kImageHeadBytes], kImageHeadBytes);
    if (d != 0) return reverse ? -d : d;
    return compare_transformed_key(level, keys[a].bytes, keys[a].length(), keys[b].bytes, keys[b].length());
  };
  std::vector<uint32_t> order, ranks;
  rank_in_order(static_cast<uint32_t>(slots.size()), compare, order, ranks);
  return ranks;
}

}  // namespace gsort
