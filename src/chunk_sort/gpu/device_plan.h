// How the GPU backend's one device allocation (the arena) is divided, for
// a given key format, record size and arena size. Pure arithmetic apart
// from asking CUB how much scratch a sort needs.
//
// Records pass through kSlots staging slots of piece_records records each;
// the keys of up to `streaming.capacity` records (one group) stay on the
// device and are sorted together.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/key_format.h"
#include "src/chunk_sort/gpu/make_gpu_backend.h"
#include "src/keys/key_layout.h"

namespace gsort::gpu {

// Offsets (bytes into the arena) of one group's sort arrays.
struct GroupArrays {
  uint64_t capacity = 0;  // records; 0 when no group fits
  size_t columns = 0;     // words-1 uint64 columns of `capacity` elements
  size_t keys_a = 0, keys_b = 0;
  size_t values_a = 0, values_b = 0;
  size_t temp = 0, temp_bytes = 0;
};

struct DevicePlan {
  static constexpr unsigned kSlots = 3;
  uint64_t piece_records = 0;  // records per host-to-device copy
  size_t staging[kSlots] = {};
  GroupArrays streaming;       // capacity is a multiple of piece_records
  size_t bytes = 0;            // arena bytes the plan uses
};

// Fewest records a streaming group may hold; below it the device is
// considered too small for the format.
constexpr uint64_t kMinGroupRecords = 1024;

kernels::KeyFormat make_key_format(const KeyLayout& layout, GpuSortAlgorithm algorithm = GpuSortAlgorithm::kAuto);

// Device bytes that sort `records` records in one streaming group, with its
// staging slots: what a known input needs at most (a chunk is one group).
size_t device_bytes_for_records(const kernels::KeyFormat& format, uint32_t record_size, uint64_t records);

// A resident sort's layout (resident_sorter.h): every record of the input,
// one group of their keys, and two slots the sorted records are gathered
// into on their way out.
struct ResidentPlan {
  uint64_t records = 0;
  uint64_t slot_records = 0;  // records per staging slot, on both sides
  size_t records_at = 0;
  GroupArrays group;
  size_t gather[2] = {};
  size_t bytes = 0;  // arena bytes the plan uses
};

// Most records one group (and so one resident sort) may hold: indices and
// CUB's counts are 32-bit.
constexpr uint64_t kMaxGroupRecords = 0xFFFFFFFFu;

// The layout for `records` (at most kMaxGroupRecords) records moving
// through slots of `slot_records` records.
ResidentPlan plan_resident(const kernels::KeyFormat& format, uint32_t record_size, uint64_t records,
                           uint64_t slot_records);

// The plan for an arena of `arena_bytes`. streaming.capacity is 0 when the
// arena cannot hold a group of kMinGroupRecords.
DevicePlan plan_device_memory(const kernels::KeyFormat& format, uint32_t record_size, size_t arena_bytes);

}  // namespace gsort::gpu
