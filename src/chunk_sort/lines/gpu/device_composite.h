// A chunk's composite plan (../composite_plan.h) made flat for the
// device's fill (kernels/composite_fill.h): nothing where a level's image
// needs the host (a locale's rules or collation, 'g', 'R', 'V'; a
// collated key ranked on the host does not) or the plan takes in more
// levels than the device's plan holds.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "kernels/composite_fill.h"
#include "src/chunk_sort/lines/composite_plan.h"

namespace gsort {

// Whether a sort by these levels may take a composite the device fills:
// its first level is a key (not the whole line) whose image the device
// makes, or a collated key (which the plan may rank).
bool device_may_fill(const std::vector<LineImageSpec>& specs);

// The flat plan, its ranked levels' pointers left null (the caller copies
// `ranked[k]`'s slots, in order, and its ranks by place where it has them,
// to the device and points levels[k].ranked and .ranks at them; null for a
// level not ranked).
std::optional<kernels::DeviceComposite> device_composite(const std::vector<LineImageSpec>& specs, const Composite& c,
                                                         const std::vector<uint64_t>& reference,
                                                         std::vector<const FewSlots*>* ranked);

}  // namespace gsort
