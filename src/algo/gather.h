// Putting records in sorted order on the host: out[i] = records[order[i]].
#pragma once

#include <cstdint>

#include "src/core/thread_pool.h"

namespace gsort {

// Copies count records of record_size bytes in the given order, split over
// the pool's threads (a random-access copy: memory latency bound, so it
// scales with threads). Urgent in the pool (ThreadPool::parallel_for): a
// writer waits on it.
void gather_records(ThreadPool& pool, const uint8_t* records, uint32_t record_size, const uint32_t* order,
                    uint64_t count, uint8_t* out);

}  // namespace gsort
