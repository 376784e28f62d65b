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

void sort_in_memory(const SortContext& ctx, uint64_t capacity, InputSet& inputs, const ReadProgress& progress,
                    DirectWrite& out, SortReport& report) {
  const uint32_t rs = ctx.layout.record_size();
  report.in_memory = true;
  Stopwatch t;
  HostBuffer records = ctx.backend.allocate_host(capacity * rs);
  report.add_phase("allocate", t.lap());
  std::unique_ptr<ChunkSortSession> session = ctx.backend.begin_chunk(records.data());
  progress.phase("reading");
  t.restart();
  const uint64_t slice = std::max<uint64_t>(1, kReadSliceBytes / rs);
  uint64_t count = 0;
  if (test_hooks::before_chunk_read) test_hooks::before_chunk_read(0);
  for (;;) {
    const uint64_t got = inputs.read(records.data() + count * rs, std::min(slice, capacity - count), &ctx.pool);
    if (got == 0) break;
    count += got;
    session->records_ready(count);
    if (count == capacity) break;
  }
  session->records_ready(count);
  report.add_phase("read", t.lap());
  report.input_records = count;
  report.input_bytes = count * rs;

  // The output starts with the order's first final part, while the rest is sorted.
  // (Huge pages where large: its first-touch faults are on the sort's path.)
  HostBuffer order = HostBuffer::allocate_pageable(std::max<uint64_t>(count, 1) * sizeof(uint32_t));
  out.sort_and_write(records.data(), count, reinterpret_cast<uint32_t*>(order.data()),
                     [&](uint32_t* into, const OrderProgress& ready) { session->finish_in_parts(into, count, ready); });
}

}  // namespace gsort
