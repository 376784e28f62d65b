#include "src/chunk_sort/backend_decision.h"

namespace gsort {

bool cpu_is_faster_for(uint64_t input_bytes, uint32_t record_size, unsigned threads) {
  return input_bytes < kGpuMinInputBytes || input_bytes / record_size < kGpuMinRecordsPerThread * threads;
}

BackendDecision decide_backend(const BackendFacts& f) {
  switch (f.choice) {
    case BackendChoice::kCpu: return {BackendPick::kCpu, "--backend cpu"};
    case BackendChoice::kGpu: return {BackendPick::kGpu, "--backend gpu"};
    case BackendChoice::kHybrid: return {BackendPick::kHybrid, "--backend hybrid"};
    case BackendChoice::kAuto: break;
  }
  if (!f.built_with_cuda) return {BackendPick::kCpu, "built without CUDA; using the CPU backend"};
  if (!f.driver_installed) {
    return {BackendPick::kCpu, "backend: the CPU backend sorts (there is no GPU (no NVIDIA driver is installed))"};
  }
  if (f.address_space_limit != 0 && f.address_space_limit < kGpuMinAddressSpace) {
    return {BackendPick::kCpu, "backend: the CPU backend sorts (an address-space limit (ulimit -v) of " +
                                   std::to_string(f.address_space_limit >> 20) +
                                   " MiB leaves too little for the CUDA runtime)"};
  }
  // An input larger than -S is not weighed by its size: the GPU's memory
  // may hold it whole, which saves writing and reading its runs
  // (src/pipeline/sort_on_device.h).
  if (f.size_known && f.input_bytes <= f.memory_budget && cpu_is_faster_for(f.input_bytes, f.record_size, f.threads)) {
    return {BackendPick::kCpu, "input of " + std::to_string(f.input_bytes) +
                                   " bytes: the CPU backend sorts it faster than the GPU starts"};
  }
  // A cached input that fits -S is sorted by the CPU where it lies; the GPU
  // would have it copied to pinned memory and back. Small records are the
  // GPU's still: it sorts them whole, with no gather on the host.
  if (f.size_known && f.input_bytes <= f.memory_budget && f.input_cached && f.record_size > kSmallRecordBytes) {
    return {BackendPick::kCpu, "input of " + std::to_string(f.input_bytes) +
                                   " bytes in the page cache: the CPU backend sorts it from its mapping, faster "
                                   "than the GPU copies it"};
  }
  return {BackendPick::kGpu, "auto: the GPU, where it starts"};
}

}  // namespace gsort
