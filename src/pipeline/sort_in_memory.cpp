#include "src/pipeline/sort_in_memory.h"

#include <algorithm>
#include <memory>

#include "src/core/host_buffer.h"
#include "src/core/stopwatch.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

constexpr uint64_t kReadSliceBytes = 64ull << 20;  // progress granularity of in-memory reads

}  // namespace

void sort_in_memory(SortJob& job, InputSet& inputs, OutputTarget& output) {
  SortReport& report = job.report;
  report.in_memory = true;
  const uint64_t capacity = job.plan.chunk_records;
  Stopwatch t;
  HostBuffer records = job.ctx.backend.allocate_host(capacity * job.rs);
  report.add_phase("allocate", t.lap());
  std::unique_ptr<ChunkSortSession> session = job.ctx.backend.begin_chunk(records.data());
  job.meter->phase("reading", job.stored_total, &job.tally->stored_bytes);
  t.restart();
  const uint64_t slice = std::max<uint64_t>(1, kReadSliceBytes / job.rs);
  uint64_t count = 0;
  if (test_hooks::before_chunk_read) test_hooks::before_chunk_read(0);
  for (;;) {
    const uint64_t got =
        inputs.read(records.data() + count * job.rs, std::min(slice, capacity - count), &job.ctx.pool);
    if (got == 0) break;
    count += got;
    session->records_ready(count);
    if (count == capacity) break;
  }
  session->records_ready(count);
  report.add_phase("read", t.lap());
  report.input_records = count;
  report.input_bytes = count * job.rs;

  // The output starts with the order's first final part, while the rest is sorted.
  // (Huge pages where large: its first-touch faults are on the sort's path.)
  HostBuffer order = HostBuffer::allocate_pageable(std::max<uint64_t>(count, 1) * sizeof(uint32_t));
  job.sort_and_write(records.data(), count, reinterpret_cast<uint32_t*>(order.data()),
                     [&](uint32_t* into, const OrderProgress& ready) { session->finish_in_parts(into, count, ready); },
                     output);
}

}  // namespace gsort
