#include "src/pipeline/sort_in_memory.h"

#include <algorithm>
#include <memory>

#include "src/core/errors.h"
#include "src/core/host_buffer.h"
#include "src/core/log.h"
#include "src/core/stopwatch.h"
#include "src/core/test_hooks.h"

namespace gsort {
namespace {

constexpr uint64_t kReadSliceBytes = 64ull << 20;  // progress granularity of in-memory reads

// One input in the page cache: its mapping is the chunk (no copy, no fresh
// memory). Null otherwise.
std::unique_ptr<MappedInput> map_input(const SortContext& ctx, InputSet& inputs, int output_fd) {
  std::unique_ptr<MappedInput> mapped = inputs.map_whole(ctx.pool, output_fd);
  if (!mapped) return nullptr;
  ctx.log.info("input: mapped, not read (its pages in the page cache)");
  return mapped;
}

// Sorts the mapped input into `out`; false where it could not be mapped
// (nothing read then). `order` holds an entry per record of the input.
bool sort_mapped(const SortContext& ctx, InputSet& inputs, int output_fd, HostBuffer& order, DirectWrite& out,
                 SortReport& report) {
  const uint32_t rs = ctx.layout.record_size();
  Stopwatch t;
  std::unique_ptr<MappedInput> mapped = map_input(ctx, inputs, output_fd);
  if (!mapped) return false;
  const uint64_t count = mapped->size() / rs;
  if (order.size() < count * sizeof(uint32_t)) throw Error("internal error: the input grew past its order");
  report.add_phase("read", t.lap());
  report.input_records = count;
  report.input_bytes = count * rs;
  std::unique_ptr<ChunkSortSession> session = ctx.backend.begin_chunk(mapped->bytes());
  session->records_ready(count);
  out.sort_and_write(mapped->bytes(), count, reinterpret_cast<uint32_t*>(order.data()),
                     [&](uint32_t* into, const OrderProgress& ready) { session->finish_in_parts(into, count, ready); });
  mapped->check_unchanged();  // the output was gathered from it
  return true;
}

}  // namespace

void sort_in_memory(const SortContext& ctx, uint64_t capacity, InputSet& inputs, int output_fd,
                    const ReadProgress& progress, DirectWrite& out, SortReport& report) {
  const uint32_t rs = ctx.layout.record_size();
  report.in_memory = true;
  Stopwatch t;
  progress.phase("reading");
  if (test_hooks::before_chunk_read) test_hooks::before_chunk_read(0);
  if (ctx.backend.sorts_in_place() && inputs.size_known()) {
    // Mapped, the one buffer to allocate is the order.
    const uint64_t records = std::max<uint64_t>(inputs.total_bytes() / rs, 1);
    HostBuffer order = HostBuffer::allocate_pageable(records * sizeof(uint32_t));
    report.add_phase("allocate", t.lap());
    if (sort_mapped(ctx, inputs, output_fd, order, out, report)) return;
    t.restart();
  }
  HostBuffer records = ctx.backend.allocate_host(capacity * rs);
  report.add_phase("allocate", t.lap());
  std::unique_ptr<ChunkSortSession> session = ctx.backend.begin_chunk(records.data());
  t.restart();
  const uint64_t slice = std::max<uint64_t>(1, kReadSliceBytes / rs);
  uint64_t count = 0;
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
