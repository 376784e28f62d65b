// A chunk's composite plan (../composite_plan.h) made flat for the
// device's fill (kernels/composite_fill.h): nothing where a level's image
// needs the host (a locale's rules or collation, 'g', 'R', 'V') or the
// plan takes in more levels than the device's plan holds.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/composite_fill.h"
#include "src/chunk_sort/lines/composite_plan.h"

namespace gsort {

// Whether a sort by these levels may take a composite the device fills:
// its first level is a key (not the whole line) whose image the device makes.
bool device_may_fill(const std::vector<LineImageSpec>& specs);

// The flat plan, its ranked levels' slot pointers left null (the caller
// copies `ranked[k]`, level k's slots in order, to the device and points
// levels[k].ranked at them).
std::optional<kernels::DeviceComposite> device_composite(const std::vector<LineImageSpec>& specs, const Composite& c,
                                                         const std::vector<uint64_t>& reference,
                                                         std::vector<std::vector<Slot>>* ranked);

}  // namespace gsort
