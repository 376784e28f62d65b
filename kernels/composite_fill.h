// A chunk's composite entries made on the device: the host plans the
// composite image of its key levels from a sample (src/chunk_sort/lines/
// composite_plan.h) and hands the plan here, flat; each GPU thread then
// makes one line's entry as the host's fill would (image_slot.h's slots,
// the same bits), so that the text crosses the bus once and no CPU thread
// reads every key. Lines that do not fit the plan are counted and listed,
// for the host to plan again. Levels whose images need the host (a
// locale's rules or collation, 'g', 'R', 'V') are never handed here,
// except a collated key ranked among a few distinct ones: the host ranks
// them, the device finds each line's key among them; and a collated
// key's heads (its key bytes kept, none folded) where the collation has a
// table of its characters' weights (head_table.h): a line with a character
// the table lacks does not fit, and the host fills the chunk.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/entry_sort.h"
#include "src/keys/head_table.h"
#include "src/keys/image_slot.h"

namespace gsort::kernels {

constexpr uint32_t kDeviceLevelsMost = 4;  // the composite's levels (composite_pass.h's kSlotLevels)

// How the composite takes one level in: composite_plan.h's LevelPlan, flat.
struct DeviceLevel {
  LineImageSpec spec;
  int raw_bits = 0;                      // its first raw_bits bits as they are
  uint64_t words = 0;                    // else its words below this, their bits under take_mask
  uint64_t take_mask[kSlotWords] = {};   // packed in order (BitSqueeze's mask)
  int take_bits[kSlotWords] = {};
  uint64_t constant[kSlotWords] = {};    // bits every line's word must share with reference's
  uint64_t reference[kSlotWords] = {};
  uint64_t mirrored = 0;                 // bits of word 0 that must mirror a number's sign
  bool exact = false;
  uint64_t longest = 0;
  const Slot* ranked = nullptr;          // or its rank among these slots (device memory, in order)
  uint32_t ranked_count = 0;
  const uint32_t* ranks = nullptr;       // each slot's rank where not its place (a collation's; device memory)
  bool key_bytes = false;                // its slots are its key's bytes (a collated level: LevelSlot::of_key_bytes)
  bool device_heads = false;             // a collated level's heads, made here from the collation's table
  HeadTable heads;                       // that table (device memory)
  int rank_bits = 0, rank_shift = 0;
};

struct DeviceComposite {
  DeviceLevel levels[kDeviceLevelsMost];
  uint32_t count = 0;
  int bits = 0;  // of the 96
};

// Enqueues on `stream`: entries[i] for lines [0, n), line i being
// text[starts[i] - starts[0], starts[i + 1] - starts[0] - 1) (its
// terminator after it): the line's composite image, left-aligned in
// (hi, lo), and i. A line that does not fit the plan is counted in
// *misfits (device memory, zeroed here) and, among the first `most`,
// listed in misfit_lines (in no order). Throws CudaError on failure.
void fill_composite_entries(const DeviceComposite& plan, const uint8_t* text, const uint64_t* starts, uint64_t n,
                            LineEntry* entries, unsigned long long* misfits, uint32_t* misfit_lines, uint32_t most,
                            cudaStream_t stream);

}  // namespace gsort::kernels
