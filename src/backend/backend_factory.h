// Picks the backend --backend asks for: auto takes the GPU when a usable one
// is present and falls back to the CPU (saying so under -v); gpu without a
// usable GPU is an error, never a silent fallback.
#pragma once

#include <memory>

#include "backend/sort_backend.h"
#include "core/sort_config.h"
#include "core/thread_pool.h"
#include "keys/key_layout.h"
#include "pipeline/log.h"

namespace gsort {

// size_known/input_bytes: the input's size, when known. With auto, an input
// known to be smaller than kGpuMinInputBytes is sorted on the CPU: starting
// the GPU would take longer than the whole sort.
constexpr uint64_t kGpuMinInputBytes = uint64_t{32} << 20;
std::unique_ptr<SortBackend> make_backend(const SortConfig& config, const KeyLayout& layout, ThreadPool& pool,
                                          const Log& log, bool size_known, uint64_t input_bytes);

}  // namespace gsort
