// Picks the backend --backend asks for: auto takes the GPU when a usable one
// is present and falls back to the CPU (saying so under -v); gpu without a
// usable GPU is an error, never a silent fallback.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "src/chunk_sort/backend_decision.h"
#include "src/chunk_sort/sort_backend.h"
#include "src/config/sort_config.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"
#include "src/core/log.h"

namespace gsort {

// Host memory pinned ahead of the backend that make_backend would make for
// an input of `input_bytes` (known size): pin_for_backend pins it for that
// backend's GPU while the result lives, or returns null where that backend
// would not pin (the CPU backend, a build without CUDA, no usable GPU).
std::unique_ptr<HostPin> pin_for_backend(const SortConfig& config, uint32_t record_size, unsigned threads,
                                         uint64_t input_bytes, void* p, size_t bytes);

// kInBackground: a GPU backend starts on its own thread (starting_backend.h)
// while the caller goes on to read; config, layout, pool and log must
// outlive the backend. Errors of the start then surface at its first use.
// input_cached: BackendFacts::input_cached, for auto.
enum class BackendStart { kNow, kInBackground };
std::unique_ptr<SortBackend> make_backend(const SortConfig& config, const KeyLayout& layout, ThreadPool& pool,
                                          const Log& log, bool size_known, uint64_t input_bytes,
                                          BackendStart when = BackendStart::kNow, bool input_cached = false);

}  // namespace gsort
