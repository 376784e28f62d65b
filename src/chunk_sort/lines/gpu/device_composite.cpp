#include "src/chunk_sort/lines/gpu/device_composite.h"

#include "src/keys/collation.h"

namespace gsort {

static_assert(kernels::kDeviceLevelsMost == kSlotLevels, "the device's plan holds every level a composite takes in");

namespace {

// A collated level the host has ranked: the device finds each line's key
// among its slots.
bool ranked_on_host(const LineImageSpec& spec, const LevelPlan& p) { return ranked_by_collation(spec) && p.ranks; }

// The table a collated level's heads are made from on the device, for a
// key taken as it is (the host's collated_head reads such a key's bytes
// straight through the table); else null.
const FirstLevelWeights* heads_table(const LineImageSpec& spec, const LevelPlan& p) {
  const LineKey& k = spec.key;
  if (!ranked_by_collation(spec) || p.ranks || k.fold || k.keep != kKeepAll || spec.collation == nullptr) return nullptr;
  return spec.collation->table();
}

}  // namespace

bool device_may_fill(const std::vector<LineImageSpec>& specs) {
  return specs.size() >= 2 && !image_is_line_itself(specs[0]) && composable(specs[0]) &&
         (image_made_from_bytes(specs[0]) || ranked_by_collation(specs[0]));
}

std::optional<kernels::DeviceComposite> device_composite(const std::vector<LineImageSpec>& specs, const Composite& c,
                                                         const std::vector<uint64_t>& reference,
                                                         std::vector<const FewSlots*>* ranked) {
  if (c.levels.size() > kernels::kDeviceLevelsMost) return std::nullopt;
  kernels::DeviceComposite d;
  d.count = static_cast<uint32_t>(c.levels.size());
  d.bits = c.bits;
  ranked->assign(c.levels.size(), nullptr);
  for (size_t k = 0; k < c.levels.size(); ++k) {
    const LevelPlan& p = c.levels[k];
    // Heads after a level the device takes (a last resort after a ranked
    // word): a whole line's heads first are the CPU's, whose fill of 2 GB of
    // log lines took 0.13-0.16 s on the H100 host (2026-12-06).
    const FirstLevelWeights* table = k > 0 ? heads_table(specs[p.level], p) : nullptr;
    if (!image_made_from_bytes(specs[p.level]) && !ranked_on_host(specs[p.level], p) && !table) return std::nullopt;
    kernels::DeviceLevel& l = d.levels[k];
    l.device_heads = table != nullptr;
    if (table) l.heads = table->view();  // the host's: fill_and_sort copies it over
    l.spec = specs[p.level];
    l.raw_bits = p.raw_bits;
    l.words = p.words;
    for (uint64_t w = 0; w < kSlotWords; ++w) {
      l.take_mask[w] = p.take[w].mask();
      l.take_bits[w] = p.take[w].bits();
      l.constant[w] = p.constant[w];
      l.reference[w] = reference[p.level * kSlotWords + w];
    }
    l.mirrored = p.mirrored;
    l.exact = p.exact;
    l.longest = p.longest;
    l.key_bytes = ranked_on_host(specs[p.level], p);
    if (p.ranks) {
      (*ranked)[k] = p.ranks;
      l.ranked_count = static_cast<uint32_t>(p.ranks->size());
      l.rank_bits = p.rank_bits;
      l.rank_shift = p.rank_shift;
    }
  }
  return d;
}

}  // namespace gsort
