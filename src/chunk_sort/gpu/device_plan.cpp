#include "src/chunk_sort/gpu/device_plan.h"

#include <algorithm>

#include "kernels/key_sort.h"

namespace gsort::gpu {
namespace {

constexpr size_t kAlign = 256;
constexpr size_t kMaxPieceBytes = size_t{64} << 20;
constexpr uint64_t kMaxGroup = kMaxGroupRecords;

size_t align_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// Lays out a group of `capacity` records from offset `at`; returns its end.
size_t layout_group(const kernels::KeyFormat& f, uint64_t capacity, size_t at, GroupArrays* g) {
  g->capacity = capacity;
  g->columns = at;
  at = align_up(at + (f.words - 1) * capacity * 8);
  g->keys_a = at;
  at = align_up(at + capacity * f.sort_key_bytes());
  g->keys_b = at;
  at = align_up(at + capacity * f.sort_key_bytes());
  g->values_a = at;
  at = align_up(at + capacity * 4);
  g->values_b = at;
  at = align_up(at + capacity * 4);
  g->temp = at;
  g->temp_bytes = kernels::key_sort_temp_bytes(f, capacity);
  return align_up(at + g->temp_bytes);
}

size_t group_bytes_per_record(const kernels::KeyFormat& f) { return (f.words - 1) * 8 + 2 * f.sort_key_bytes() + 8; }

// The largest capacity (at most `limit`, a multiple of `multiple`) whose
// group fits between `at` and `end`; 0 if none.
uint64_t fit_group(const kernels::KeyFormat& f, size_t at, size_t end, uint64_t multiple, uint64_t limit,
                   GroupArrays* g) {
  *g = GroupArrays{};
  if (end <= at) return 0;
  uint64_t capacity = std::min<uint64_t>((end - at) / group_bytes_per_record(f), limit);
  while (capacity > 0) {
    capacity -= capacity % multiple;
    if (capacity == 0) break;
    if (layout_group(f, capacity, at, g) <= end) return capacity;
    capacity -= std::max<uint64_t>(multiple, capacity / 64);
  }
  *g = GroupArrays{};
  return 0;
}

void plan_streaming(const kernels::KeyFormat& f, uint32_t record_size, size_t arena, DevicePlan* p) {
  uint64_t piece = std::max<uint64_t>(1, std::min(arena / 12, kMaxPieceBytes) / record_size);
  for (;;) {
    const size_t slot = align_up(piece * record_size);
    size_t at = 0;
    for (size_t& s : p->staging) {
      s = at;
      at += slot;
    }
    const uint64_t limit = kMaxGroup - kMaxGroup % piece;
    if (fit_group(f, at, arena, piece, limit, &p->streaming) >= kMinGroupRecords || piece == 1) break;
    piece = std::max<uint64_t>(1, piece / 4);  // the staging slots crowd out the keys
  }
  p->piece_records = piece;
  if (p->streaming.capacity < kMinGroupRecords) p->streaming = GroupArrays{};
}

size_t group_end(const GroupArrays& g) { return g.capacity == 0 ? 0 : align_up(g.temp + g.temp_bytes); }

}  // namespace

size_t device_bytes_for_records(const kernels::KeyFormat& format, uint32_t record_size, uint64_t records) {
  const uint64_t group = std::min<uint64_t>(std::max<uint64_t>(records, kMinGroupRecords), kMaxGroup);
  const size_t piece = std::min(kMaxPieceBytes, align_up(group * record_size));
  GroupArrays g;
  return layout_group(format, group, DevicePlan::kSlots * align_up(piece), &g);
}

kernels::KeyFormat make_key_format(const KeyLayout& layout, GpuSortAlgorithm algorithm) {
  kernels::KeyFormat f;
  f.width = layout.width();
  f.words = layout.word_count();
  f.last_bytes = f.width - 8 * (f.words - 1);
  f.last_type = kernels::word_type_for(f.last_bytes);
  // gsort's radix sort takes 32- and 64-bit keys, its merge sort 64-bit
  // keys (kernels/device/sorts.h): widen the last word's type so that every
  // pass runs on them.
  switch (algorithm) {
    case GpuSortAlgorithm::kAuto: f.sort = kernels::PassSort::kAuto; break;
    case GpuSortAlgorithm::kCub: f.sort = kernels::PassSort::kCub; break;
    case GpuSortAlgorithm::kRadix:
      f.sort = kernels::PassSort::kRadix;
      if (f.last_type == kernels::WordType::kU16) f.last_type = kernels::WordType::kU32;
      break;
    case GpuSortAlgorithm::kMerge:
      f.sort = kernels::PassSort::kMerge;
      f.last_type = kernels::WordType::kU64;
      break;
  }
  const auto& fields = layout.fields();
  if (fields.size() == 1) {
    f.single = fields.front();
    f.path = f.single.kind == KeyKind::kBytes ? kernels::ExtractPath::kSingleBytes : kernels::ExtractPath::kSingleNumeric;
  } else {
    f.path = kernels::ExtractPath::kGeneric;
  }
  return f;
}

ResidentPlan plan_resident(const kernels::KeyFormat& format, uint32_t record_size, uint64_t records,
                           uint64_t slot_records) {
  ResidentPlan p;
  p.records = records;
  p.slot_records = std::max<uint64_t>(slot_records, 1);
  p.records_at = 0;
  size_t at = align_up(records * record_size);
  at = layout_group(format, std::max<uint64_t>(records, 1), at, &p.group);
  const size_t slot = align_up(p.slot_records * record_size);
  p.gather[0] = at;
  p.gather[1] = at + slot;
  p.bytes = at + 2 * slot;
  return p;
}

DevicePlan plan_device_memory(const kernels::KeyFormat& format, uint32_t record_size, size_t arena_bytes) {
  DevicePlan p;
  plan_streaming(format, record_size, arena_bytes, &p);
  if (p.streaming.capacity == 0) return p;
  p.bytes = group_end(p.streaming);
  return p;
}

}  // namespace gsort::gpu
