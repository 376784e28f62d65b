// What sorts the lines of one chunk: the CPU on all threads
// (sort_cpu.cpp) or the GPU (gpu/sort_gpu.h). Either returns the
// same order: the lines by the full comparison (src/keys/line_compare.h), lines
// that compare equal in input order.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "src/algo/line_index.h"
#include "src/chunk_sort/lines/composite_pass.h"
#include "src/config/sort_config.h"
#include "src/core/device_budget.h"
#include "src/core/host_buffer.h"
#include "src/core/log.h"
#include "src/core/thread_pool.h"
#include "src/keys/line_spec.h"

namespace gsort {

class LineSorter {
 public:
  virtual ~LineSorter() = default;
  // order[0, lines.count): the sorted order of the chunk's lines.
  virtual void sort(const LineSpan& lines, uint32_t* order) = 0;
  // The same, calling ready(n) as each prefix order[0, n) is final (the
  // last call with lines.count), so that writing may start before the end.
  virtual void sort_in_parts(const LineSpan& lines, uint32_t* order, const std::function<void(uint64_t)>& ready) {
    sort(lines, order);
    ready(lines.count);
  }
  // Where the sorter holds the chunk's text itself (the GPU, which copied
  // it in to fill the entries), write_sorted() hands the chunk's lines in
  // `order` (final) to put(text, bytes, last) a piece at a time, each line
  // with its terminator, end to end; false, having handed nothing, where
  // it does not hold them or cannot (no room).
  using SortedText = std::function<void(const uint8_t* text, uint64_t bytes, bool last)>;
  virtual bool holds_text(const LineSpan& lines) const {
    (void)lines;
    return false;
  }
  virtual bool write_sorted(const LineSpan& lines, const uint32_t* order, const SortedText& put) {
    (void)lines, (void)order, (void)put;
    return false;
  }
  // The input's bytes, where known (0: not), before its first chunk is
  // read: a sorter may start its device meanwhile.
  virtual void prepare(uint64_t input_bytes) { (void)input_bytes; }
  virtual std::string describe() const = 0;
  // Where the sorting time went so far, in one line for -v ("" where the
  // sorter does not say).
  virtual std::string steps() const { return {}; }
  // Host bytes the sorter holds per line of a chunk (for the memory plan).
  virtual uint64_t bytes_per_line() const = 0;
  // Host memory for a chunk's text, line starts and order: pinned for the
  // GPU's copies, where it can be.
  virtual HostBuffer allocate_host(size_t bytes) { return HostBuffer::allocate_pageable(bytes); }
  // Whether a chunk's text may be any memory, such as a mapping of the input
  // (the GPU's copies want the pinned memory of allocate_host).
  virtual bool reads_any_memory() const { return true; }
};

struct WideEntry;

// Sorts entries[0, n) by their 96 bits, stably, off the CPU's threads
// (the GPU: gpu/sort_gpu.h); false where it cannot (no room) or it would
// not pay, leaving the entries as they were. `large`: of the n, the lines
// in buckets the CPU would sort on all threads, one bucket after another
// (all n where one thread sorts): what the offload would spare the CPU.
using EntrySortOffload = std::function<bool(WideEntry* entries, uint64_t n, uint64_t large)>;

// The CPU sorter (sort_cpu.cpp); with an offload, the radix sort of a
// chunk's entries is handed to it, and with a composite offload
// (composite_pass.h) also the fill of its composite entries; the CPU
// refines the ties and writes the order.
std::unique_ptr<LineSorter> make_cpu_line_sorter(const LineSpec& spec, ThreadPool& pool,
                                                 EntrySortOffload offload = {},
                                                 CompositeOffload composite_offload = {});

// The sorter --backend asks for: the CPU's under cpu; the GPU's
// (gpu/sort_gpu.h) under gpu and hybrid, and under auto where a GPU driver
// is installed. The GPU's sorter hands a chunk to the device only where
// that pays (a sort no chunk of pays for the device's start sorts on the
// CPU and never starts it). --backend gpu without a usable GPU throws
// DeviceError (where a driver is installed, from the first chunk that
// would use it); auto sorts on the CPU instead. --backend hybrid sorts
// lines as --backend gpu does. The GPU's sorter takes its device memory from `budget` (the
// job's --gpu-memory; null: no cap).
std::unique_ptr<LineSorter> make_line_sorter(const SortConfig& config, const LineSpec& spec, ThreadPool& pool,
                                             const Log& log, std::shared_ptr<DeviceBudget> budget);

}  // namespace gsort
