// The CPU backend: parallel LSD radix sort of (key prefix, index) pairs,
// ties past the prefix settled by comparing the records, then a merge-path
// merge of the threads' sorted slices.
#pragma once

#include <memory>

#include "src/chunk_sort/sort_backend.h"
#include "src/core/thread_pool.h"
#include "src/keys/key_layout.h"

namespace gsort {

std::unique_ptr<SortBackend> make_cpu_backend(const KeyLayout& layout, ThreadPool& pool);

}  // namespace gsort
