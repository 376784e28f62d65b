// The GPU sorter of lines (built with CUDA only): the CPU sorter
// (sort_cpu.cpp) with the radix sort of a chunk's entries handed to the
// device (kernels/entry_sort.h) where that pays. The host compiles the keys
// into the 96-bit entries (composite_pass.h, first_pass.h), refines what
// ties and writes the order, so the order is exactly the CPU sorter's. The
// device is started for the first chunk that pays for its start (most
// never do: a chunk whose buckets the CPU sorts a task each keeps the CPU
// busy for less than a CUDA context costs); a chunk the device has no room
// for, too small to pay for the copies, or whose buckets the CPU sorts a
// task each, is sorted on the CPU.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/chunk_sort/lines/sorter.h"

namespace gsort {

// What the sorter weighs before it hands a chunk to the device: the
// CPU's time for the chunk's large buckets (sort_cpu.cpp) against the
// device's start, paid once, and every line's round trip. The defaults
// were measured on the H200 machine (16 cores), 2026-12-02: `--backend
// gpu` on a 100 KB input took 0.31-0.34 s more than `--backend cpu`,
// nearly all of it the kernel's (the context made and torn down). On 50M
// numbers, 45M of them in large buckets, the CPU's radix sorts took 0.16 s
// on all threads (58 thread-ns a line), the device's start 0.22 s and the
// round trip (registering, copies, sort, the first chunk's buffers) 0.31 s:
// on 16 threads no chunk pays, on 4 a chunk of 45M lines or more does.
//
// A chunk whose composite entries (composite_pass.h) the device can fill
// is filled and sorted there where the CPU's fill, split and bucket sorts
// take longer than the text's copy in and the fill, sort and entries'
// way back. On the H200 host (16 threads, 2026-12-03) the CPU took 0.98 s
// for 2 GB of -t, -k3,3n (64.5M lines: some 240 thread-ns a line) and
// 0.60 s for 33M lines of long common prefixes (290); the device took
// 0.137 s for the 2.51 GB of text and starts (registered) and 0.20 s for
// the rest (3.2 ns a line). An input of warm_bytes or more has the
// device started while it is read.
struct DeviceLineCosts {
  double start_s = 0.35;
  double cpu_thread_ns_per_line = 58;   // a large bucket's line, in thread time
  double round_trip_ns_per_line = 6.1;  // 16 bytes registered, in and back, sorted
  double cpu_fill_thread_ns_per_line = 240;
  double text_in_ns_per_byte = 0.055;
  double fill_ns_per_line = 3.5;
  uint64_t warm_bytes = uint64_t{256} << 20;
};

// budget: the device bytes it may take, shared with the job's other users
// of the device (null: what a chunk needs). Where the device cannot start,
// the first chunk that would pay for it throws DeviceError(failure_prefix
// + why); with an empty failure_prefix (--backend auto) that chunk and
// every later one are sorted on the CPU instead, said under -v. A sort that
// no chunk of pays for never starts the device.
std::unique_ptr<LineSorter> make_gpu_line_sorter(const LineSpec& spec, ThreadPool& pool, int device,
                                                 std::shared_ptr<DeviceBudget> budget, const Log* log = nullptr,
                                                 const std::string& failure_prefix = "--backend gpu: ",
                                                 const DeviceLineCosts& costs = {});

}  // namespace gsort
