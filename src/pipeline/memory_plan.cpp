#include "src/pipeline/memory_plan.h"

#include <algorithm>

#include "io/output/write_behind.h"

namespace gsort {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB;
constexpr uint64_t kMaxFanIn = 512;       // keeps open files well under the usual 1024 limit
constexpr uint64_t kMaxChunkRecords = 0xFFFFFFFFull;  // record indices are 32-bit
// Spilled chunks stop growing here: larger runs save little merging, while a
// chunk buffer is allocated (and, for a GPU, pinned) before its size is known
// to be needed.
constexpr uint64_t kMaxSpillChunkBytes = 4ull << 30;

uint64_t whole_records(uint64_t bytes, uint32_t record_size) {
  return std::max<uint64_t>(1, bytes / record_size);
}

uint64_t spill_bytes_per_record(uint64_t rs, uint64_t backend_bytes) {
  return 2 * rs + 2 * sizeof(uint32_t) + backend_bytes;
}

uint64_t merge_bytes_per_record(uint64_t rs, uint64_t backend_bytes) {
  return 3 * rs + sizeof(uint32_t) + backend_bytes;
}

// The budget left once the output's write-behind buffers are taken.
uint64_t usable_bytes(uint64_t budget, uint64_t block_bytes) {
  const uint64_t io_bytes = kWriteBehindBuffers * block_bytes;
  return budget > io_bytes ? budget - io_bytes : 0;
}

}  // namespace

MergeWindows merge_windows(const MemoryPlan& plan, uint64_t budget, uint32_t record_size, uint64_t backend_bytes) {
  MergeWindows w;
  w.usable_bytes = usable_bytes(budget, plan.block_bytes);
  w.bytes_per_record = merge_bytes_per_record(record_size, backend_bytes);
  w.least_records = plan.source_records;
  w.most_records = std::max(plan.source_records, (uint64_t{64} << 20) / record_size);
  return w;
}

MemoryPlan plan_memory(uint64_t budget, uint32_t record_size, uint64_t backend_bytes, bool size_known,
                       uint64_t total_records, unsigned streams) {
  MemoryPlan plan;
  const uint64_t rs = record_size;
  plan.block_bytes = whole_records(std::clamp<uint64_t>(budget / 16, 4 * kKiB, 16 * kMiB), record_size) * rs;
  const uint64_t usable = usable_bytes(budget, plan.block_bytes);

  // In memory: the records, their order, and the backend's working space.
  const uint64_t in_memory_per_record = rs + sizeof(uint32_t) + backend_bytes;
  if (size_known && total_records <= kMaxChunkRecords &&
      (total_records == 0 || usable / in_memory_per_record >= total_records)) {
    plan.in_memory = true;
    plan.chunk_records = std::max<uint64_t>(total_records, 1);
  } else {
    // Two chunk buffers, so the next chunk is read while this one is sorted,
    // and two orders, so that a chunk is sorted while the last is written.
    const uint64_t per_record = spill_bytes_per_record(rs, backend_bytes);
    const uint64_t cap = std::min(kMaxChunkRecords, std::max<uint64_t>(1, kMaxSpillChunkBytes / rs));
    plan.chunk_records = std::clamp<uint64_t>(usable / per_record, 1, cap);
  }

  // Merge: each source gets a read buffer; what is left of the budget after
  // the output's buffers decides how many sources fit.
  plan.source_records = whole_records(std::clamp<uint64_t>(budget / 256, 16 * kKiB, 8 * kMiB), record_size);
  // A window per source, plus its share of the two batch buffers, the
  // order array and the backend's working space.
  const uint64_t source_bytes = plan.source_records * merge_bytes_per_record(rs, backend_bytes);
  plan.fan_in = std::clamp<uint64_t>(usable / source_bytes, 2, kMaxFanIn);
  const uint64_t stream_room = std::max<uint64_t>(1, plan.block_bytes / std::max(kMinStreamBlockBytes, rs));
  plan.spill_streams = static_cast<unsigned>(std::clamp<uint64_t>(streams, 1, stream_room));
  return plan;
}

namespace {

// Whether a plan under `budget` stays within it: its minimums (one record
// in each of two chunk buffers, merge windows for two sources, the output's
// buffers) take no more than the budget.
bool holds_working_set(uint64_t budget, uint32_t record_size, uint64_t backend_bytes) {
  const MemoryPlan plan = plan_memory(budget, record_size, backend_bytes, false, 0);
  const uint64_t usable = usable_bytes(budget, plan.block_bytes);
  const uint64_t rs = record_size;
  const uint64_t chunk_record = spill_bytes_per_record(rs, backend_bytes);
  const uint64_t two_sources = 2 * plan.source_records * merge_bytes_per_record(rs, backend_bytes);
  return usable >= chunk_record && usable >= two_sources;
}

}  // namespace

uint64_t working_set_bytes(uint32_t record_size, uint64_t backend_bytes) {
  // The smallest budget that holds it (a binary search: more budget never
  // holds less).
  uint64_t lo = 0, hi = uint64_t{1} << 44;
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (holds_working_set(mid, record_size, backend_bytes) ? hi : lo) = mid;
  }
  return hi;
}

uint64_t minimum_budget(uint32_t record_size, uint64_t backend_bytes) {
  return std::max(kMinBudgetBytes, working_set_bytes(record_size, backend_bytes));
}

}  // namespace gsort
