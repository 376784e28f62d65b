// The GPU sorter of lines (built with CUDA only): the CPU sorter
// (sort_cpu.cpp) with the radix sort of each chunk's entries handed to
// the device (kernels/entry_sort.h). The host compiles the keys into the
// 96-bit entries (composite_pass.h, first_pass.h), refines what ties and
// writes the order, so the order is exactly the CPU sorter's. A chunk the
// device has no room for, too small to pay for the copies, or whose
// buckets the CPU sorts a task each (sort_cpu.cpp), is sorted on the CPU.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/lines/sort/sorter.h"

namespace gsort {

// budget: the device bytes it may take, shared with the job's other users
// of the device (null: what a chunk needs). The device starts in the
// background; where it cannot, the first chunk that needs it throws
// DeviceError(failure_prefix + why).
std::unique_ptr<LineSorter> make_gpu_line_sorter(const LineSpec& spec, ThreadPool& pool, int device,
                                                 std::shared_ptr<DeviceBudget> budget, const Log* log = nullptr,
                                                 const std::string& failure_prefix = "--backend gpu: ");

}  // namespace gsort
