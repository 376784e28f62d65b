// Runs of lines held in the GPU's memory (held_runs.h): one device buffer
// reserved for the input's bytes, each run copied in as its writer's blocks
// come and read back by the merge's threads, each on its own per-thread
// stream. The device's memory is not the host's: -S does not count it, a
// cgroup does not charge it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/core/device_budget.h"
#include "src/merge/held_runs.h"

namespace gsort {

// A store of `bytes` on CUDA device `device`, taken from `budget` (the
// job's --gpu-memory; null: no cap) and from most of its free memory; null
// where there is no usable device or it cannot hold them, with the reason
// in *why.
std::unique_ptr<HeldRuns> hold_runs_on_device(int device, uint64_t bytes, std::shared_ptr<DeviceBudget> budget,
                                                       std::string* why);

}  // namespace gsort
