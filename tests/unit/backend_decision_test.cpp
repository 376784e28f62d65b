// --backend auto's choice from what is known before the read
// (src/chunk_sort/backend_decision.h), over sizes, layouts, budgets and
// the presence of a GPU driver; the explicit choices are what they ask.
#include <gtest/gtest.h>

#include <cstdint>

#include "src/chunk_sort/backend_decision.h"

namespace gsort {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20, kGiB = kMiB << 10;

BackendFacts gpu_host(uint64_t input_bytes, uint32_t record_size, uint64_t budget = 64 * kGiB) {
  BackendFacts f;
  f.size_known = true;
  f.input_bytes = input_bytes;
  f.record_size = record_size;
  f.threads = 16;
  f.memory_budget = budget;
  f.built_with_cuda = true;
  f.driver_installed = true;
  return f;
}

TEST(BackendDecision, ExplicitChoicesAreWhatTheyAsk) {
  BackendFacts f = gpu_host(12 * kGiB, 100);
  f.choice = BackendChoice::kCpu;
  EXPECT_EQ(decide_backend(f).pick, BackendPick::kCpu);
  f.choice = BackendChoice::kGpu;
  f.driver_installed = false;  // its start fails with a message, never a silent fallback
  EXPECT_EQ(decide_backend(f).pick, BackendPick::kGpu);
  f.choice = BackendChoice::kHybrid;
  EXPECT_EQ(decide_backend(f).pick, BackendPick::kHybrid);
}

TEST(BackendDecision, AutoWithoutADriverOrCudaIsTheCpuAtOnce) {
  BackendFacts f = gpu_host(12 * kGiB, 100);
  f.driver_installed = false;
  const BackendDecision d = decide_backend(f);
  EXPECT_EQ(d.pick, BackendPick::kCpu);
  EXPECT_NE(d.why.find("no NVIDIA driver"), std::string::npos) << d.why;
  f = gpu_host(12 * kGiB, 100);
  f.built_with_cuda = false;
  EXPECT_EQ(decide_backend(f).pick, BackendPick::kCpu);
}

TEST(BackendDecision, AutoLeavesTheGpuAloneUnderASmallAddressSpaceLimit) {
  BackendFacts f = gpu_host(12 * kGiB, 100);
  f.address_space_limit = 150 * kMiB;
  const BackendDecision d = decide_backend(f);
  EXPECT_EQ(d.pick, BackendPick::kCpu);
  EXPECT_NE(d.why.find("ulimit -v"), std::string::npos) << d.why;
  f.address_space_limit = kGpuMinAddressSpace;
  EXPECT_EQ(decide_backend(f).pick, BackendPick::kGpu);
  f.address_space_limit = 150 * kMiB;
  f.choice = BackendChoice::kGpu;  // asked for: tried, and its failure said
  EXPECT_EQ(decide_backend(f).pick, BackendPick::kGpu);
}

TEST(BackendDecision, AutoWeighsAKnownSizeThatFitsTheBudget) {
  // 16 threads: the GPU from 64M records (4M a thread) and 32 MiB up.
  EXPECT_EQ(decide_backend(gpu_host(2 * kGiB, 100)).pick, BackendPick::kCpu) << "20M gensort records";
  EXPECT_EQ(decide_backend(gpu_host(12 * kGiB, 100)).pick, BackendPick::kGpu) << "120M gensort records";
  EXPECT_EQ(decide_backend(gpu_host(8 * kGiB, 16)).pick, BackendPick::kGpu) << "500M 16-byte records";
  EXPECT_EQ(decide_backend(gpu_host(511 * kMiB, 8)).pick, BackendPick::kCpu) << "just under 64M records";
  EXPECT_EQ(decide_backend(gpu_host(512 * kMiB, 8)).pick, BackendPick::kGpu) << "64M records";
  EXPECT_EQ(decide_backend(gpu_host(16 * kMiB, 1)).pick, BackendPick::kCpu) << "below 32 MiB";
  const BackendDecision small = decide_backend(gpu_host(2 * kGiB, 100));
  EXPECT_NE(small.why.find("faster than the GPU starts"), std::string::npos) << small.why;
}

TEST(BackendDecision, AutoDoesNotWeighAnInputLargerThanTheBudgetBySize) {
  // 2 GB under -S 1G spills on the host, or is held whole by the GPU.
  EXPECT_EQ(decide_backend(gpu_host(2 * kGiB, 100, kGiB)).pick, BackendPick::kGpu);
  EXPECT_EQ(decide_backend(gpu_host(2 * kGiB, 100, 2 * kGiB)).pick, BackendPick::kCpu) << "it fits -S";
}

TEST(BackendDecision, AutoWithAnUnknownSizeStartsTheGpu) {
  BackendFacts f = gpu_host(0, 100);
  f.size_known = false;
  EXPECT_EQ(decide_backend(f).pick, BackendPick::kGpu);
}

TEST(BackendDecision, AutoSortsACachedInputThatFitsMemoryOnTheCpuUnlessItsRecordsAreSmall) {
  BackendFacts f = gpu_host(12 * kGiB, 100);
  EXPECT_EQ(decide_backend(f).pick, BackendPick::kGpu) << "not known to be cached: the GPU, where it starts";
  f.input_cached = true;
  const BackendDecision d = decide_backend(f);
  EXPECT_EQ(d.pick, BackendPick::kCpu) << "sorted from its mapping";
  EXPECT_NE(d.why.find("from its mapping"), std::string::npos) << d.why;
  f.record_size = kSmallRecordBytes;
  EXPECT_EQ(decide_backend(f).pick, BackendPick::kGpu) << "small records are sorted whole on the GPU";
  f = gpu_host(12 * kGiB, 100, 2 * kGiB);
  f.input_cached = true;
  EXPECT_EQ(decide_backend(f).pick, BackendPick::kGpu) << "larger than -S: the GPU's memory may hold it";
  f = gpu_host(12 * kGiB, 100);
  f.input_cached = true;
  f.choice = BackendChoice::kGpu;
  EXPECT_EQ(decide_backend(f).pick, BackendPick::kGpu) << "--backend gpu is what it asks";
}

}  // namespace
}  // namespace gsort
