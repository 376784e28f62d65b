#include "src/algo/gather.h"

#include <algorithm>
#include <cstring>

#include "src/core/test_hooks.h"

namespace gsort {
namespace {

template <uint32_t kSize>
void gather_fixed(const uint8_t* records, const uint32_t* order, uint64_t begin, uint64_t end, uint8_t* out) {
  constexpr uint64_t kAhead = 16;  // prefetch distance, in records
  for (uint64_t i = begin; i < end; ++i) {
    if (i + kAhead < end) __builtin_prefetch(records + uint64_t{order[i + kAhead]} * kSize);
    std::memcpy(out + i * kSize, records + uint64_t{order[i]} * kSize, kSize);
  }
}

void gather_any(const uint8_t* records, uint32_t size, const uint32_t* order, uint64_t begin, uint64_t end,
                uint8_t* out) {
  constexpr uint64_t kAhead = 8;
  for (uint64_t i = begin; i < end; ++i) {
    if (i + kAhead < end) __builtin_prefetch(records + uint64_t{order[i + kAhead]} * size);
    std::memcpy(out + i * size, records + uint64_t{order[i]} * size, size);
  }
}

void gather_range(const uint8_t* records, uint32_t size, const uint32_t* order, uint64_t begin, uint64_t end,
                  uint8_t* out) {
  switch (size) {  // fixed sizes let memcpy become a few moves
    case 4: return gather_fixed<4>(records, order, begin, end, out);
    case 8: return gather_fixed<8>(records, order, begin, end, out);
    case 16: return gather_fixed<16>(records, order, begin, end, out);
    case 32: return gather_fixed<32>(records, order, begin, end, out);
    case 64: return gather_fixed<64>(records, order, begin, end, out);
    case 100: return gather_fixed<100>(records, order, begin, end, out);
    case 128: return gather_fixed<128>(records, order, begin, end, out);
    default: return gather_any(records, size, order, begin, end, out);
  }
}

}  // namespace

void gather_records(ThreadPool& pool, const uint8_t* records, uint32_t record_size, const uint32_t* order,
                    uint64_t count, uint8_t* out) {
  const uint64_t forced = test_hooks::gather_task_records ? test_hooks::gather_task_records() : 0;
  // A task copies at least kMinTaskBytes: a run's 1-2 MiB blocks are each
  // gathered by many threads, not two (one block at a time is in flight per
  // writer, and the copy is bound by memory latency, not bandwidth).
  constexpr uint64_t kMinTaskBytes = uint64_t{64} << 10;
  const uint64_t by_bytes = std::max<uint64_t>(1, kMinTaskBytes / record_size);
  const size_t min_per_task = static_cast<size_t>(forced != 0 ? forced : by_bytes);
  size_t tasks = pool.balanced_task_count();
  if (count / min_per_task < tasks) tasks = count / min_per_task + 1;
  // Urgent: a writer waits on every gathered block, while other loops (the
  // rest of an in-memory sort, the next chunk's sort) can wait.
  pool.parallel_for(
      tasks,
      [&](size_t t) {
        gather_range(records, record_size, order, split_point(count, tasks, t), split_point(count, tasks, t + 1),
                     out);
      },
      true);
}

}  // namespace gsort
