// The path for an input larger than the host's budget that the GPU's
// memory can hold whole (SortBackend::hold_records): read once through two
// pinned slots into the device, sorted there, and written once to the
// destination. No run touches the disk; host memory is the two slots.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "io/input/input_set.h"
#include "src/chunk_sort/backend_decision.h"
#include "src/output/final_output.h"
#include "src/pipeline/external_sort.h"
#include "src/pipeline/read_progress.h"
#include "src/report/sort_report.h"

namespace gsort {

// Whether to ask the backend to hold the input: a sort (not a merge) of
// known, non-zero size, with a backend that may have a device (not
// --backend cpu), that does not fit the host's budget, or fits it with
// small records (kSmallRecordBytes; auto or --backend gpu: hybrid splits the
// work with the host).
bool device_tier_wanted(const SortConfig& config, bool size_known, uint64_t input_bytes, bool in_memory,
                        uint32_t record_size);

// Each staging slot's bytes under a host budget of `budget`: a quarter of
// it, at most 256 MiB.
uint64_t device_tier_slot_bytes(uint64_t budget);

// Sorts a spilled sort's inputs on the device (device_tier_wanted) when
// the backend can hold them all; false, having read nothing, when not
// wanted or it cannot (then the reason is under -v and in
// report.device_tier_why).
// prepare_output(bytes, lead) is called once the device holds the input,
// before the read: the destination may map its `bytes` now and make its
// pages present while the device reads and sorts, at most `lead` bytes
// ahead of the writer (MappedDestination::prepare).
using PrepareOutput = std::function<void(uint64_t bytes, uint64_t lead)>;
// `in_memory`: the input fits the host's budget (then a device that cannot
// hold it leaves it to the host's sort, quietly).
bool sort_on_device(const SortContext& ctx, uint64_t budget, bool in_memory, InputSet& inputs,
                    const ReadProgress& progress, FinalOutput& out, const PrepareOutput& prepare_output,
                    SortReport& report);

// Fills `resident` with up to `count` records through its slots, each slot
// by fill(slot, records), which returns how many it put there (0: the
// input has ended); returns how many in all.
using SlotFill = std::function<uint64_t(uint8_t* slot, uint64_t records)>;
uint64_t fill_device(ResidentSort& resident, uint64_t count, const SlotFill& fill);
// The same from `inputs` (the pool reads).
uint64_t read_into_device(ThreadPool& pool, ResidentSort& resident, uint64_t count, InputSet& inputs);

// 0, 1, ..., count - 1 (at least one entry): the order of records that are
// already in order, for writers that take an order.
std::vector<uint32_t> identity_order(uint64_t count);

}  // namespace gsort
