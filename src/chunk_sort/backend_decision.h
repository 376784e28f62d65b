// Which backend sorts, decided from what is known before the read: the
// --backend choice, the input's size and layout, the host's threads and
// budget, and whether a GPU driver is installed (asked without starting
// it). A pure function: make_backend acts on it, the tests probe it.
#pragma once

#include <cstdint>
#include <string>

#include "src/config/sort_config.h"

namespace gsort {

// With auto, an input known to be small for this machine is sorted on the
// CPU: below kGpuMinInputBytes, or below kGpuMinRecordsPerThread records
// per CPU thread: below that, the CPU backend finishes before the GPU's
// CUDA start-up and pinning would (docs/benchmarks.md, "Start-up costs", 2026-11-22).
constexpr uint64_t kGpuMinInputBytes = uint64_t{32} << 20;
constexpr uint64_t kGpuMinRecordsPerThread = uint64_t{4} << 20;
// Under an address-space limit (ulimit -v) below this, auto does not start
// the GPU: the CUDA runtime reserves more address space than that, and
// loading it would take from what the sort's own threads and buffers need.
constexpr uint64_t kGpuMinAddressSpace = uint64_t{64} << 30;

// Records of at most this many bytes that fit -S are sorted whole on the
// GPU where it can hold them (src/pipeline/sort_on_device.h): copied back in
// order, they need no host gather, the longest step for small records.
constexpr uint32_t kSmallRecordBytes = 32;

// Whether auto should sort an input of this known size on the CPU.
bool cpu_is_faster_for(uint64_t input_bytes, uint32_t record_size, unsigned threads);

struct BackendFacts {
  BackendChoice choice = BackendChoice::kAuto;
  bool size_known = false;
  uint64_t input_bytes = 0;  // when size_known
  uint32_t record_size = 1;
  unsigned threads = 1;
  uint64_t memory_budget = 0;  // -S
  bool built_with_cuda = false;
  bool driver_installed = false;
  uint64_t address_space_limit = 0;  // RLIMIT_AS; 0: none
  // One plain input file, every page of it in the page cache: an in-memory
  // sort on the CPU sorts it from its mapping, without a copy.
  bool input_cached = false;
};

enum class BackendPick { kCpu, kGpu, kHybrid };

struct BackendDecision {
  BackendPick pick = BackendPick::kCpu;
  std::string why;  // for -v
};

// kGpu for auto means "start the GPU (in the background) and use it if it
// starts"; gpu and hybrid are what they ask, whatever the facts (their
// start fails with a message where no GPU can be used).
BackendDecision decide_backend(const BackendFacts& facts);

}  // namespace gsort
