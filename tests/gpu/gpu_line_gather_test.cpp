// The device's gather of a sorted chunk (kernels/line_gather.h, the GPU
// sorter's write_sorted): where the device filled and sorted a chunk's
// entries it holds the text, and the lines it hands back, in pieces that
// split lines anywhere, must be the chunk's lines in the sorter's final
// order (the host's refinement of ties included) byte for byte; where
// --gpu-memory leaves no room for the gathered text, it hands nothing and
// says so. Skips without a usable GPU.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "src/chunk_sort/lines/gpu/sort_gpu.h"
#include "src/core/device_budget.h"
#include "src/core/thread_pool.h"
#include "tests/gpu/require_gpu.h"
#include "tests/support/line_gen.h"
#include "tests/support/line_reference.h"

namespace gsort {
namespace {

using gsort_test::Rng;

const DeviceLineCosts kDeviceAlwaysPays{0, 1, 0};  // the device's start and copies free
const char* const kNames[] = {"alpha", "Bravo", "charlie", "delta", "ECHO"};

// CSV lines: a number, a name of few, a number, and a tail of any length
// (some far longer than a warp's 32 bytes, some empty); one in a hundred
// a copy of an earlier line (ties the host refines after the device).
std::vector<std::string> csv_lines(uint64_t seed, int count) {
  Rng rng(seed);
  std::vector<std::string> lines;
  for (int i = 0; i < count; ++i) {
    if (i > 0 && rng.chance(1)) {
      lines.push_back(lines[rng.below(static_cast<uint64_t>(i))]);
      continue;
    }
    const uint64_t tail = rng.below(8) == 0 ? rng.below(300) : rng.below(12);
    lines.push_back(std::to_string(rng.below(10000000)) + "," + kNames[rng.below(5)] + "," +
                    std::to_string(rng.below(10000000)) + "," + std::string(tail, static_cast<char>('a' + i % 26)));
  }
  return lines;
}

struct Gathered {
  bool handed = false;
  uint64_t sort_bytes = 0;  // what the budget held once the chunk was sorted
  std::string text;
  int pieces = 0;
  int lasts = 0;
};

// Sorts `lines` with the GPU's sorter (budget: its --gpu-memory) and asks
// it for the sorted text; the order must be the reference's either way.
Gathered sort_and_gather(const std::vector<std::string>& lines, const std::vector<std::string>& args,
                         std::shared_ptr<DeviceBudget> budget, std::string* expected) {
  ThreadPool pool(4);
  const LineSpec spec = gsort_test::spec_of_args(args);
  const gsort_test::LineChunk chunk = gsort_test::make_chunk(lines, '\n');
  const LineSpan span = chunk.span();
  const std::unique_ptr<LineSorter> gpu = make_gpu_line_sorter(spec, pool, 0, budget, nullptr, "--backend gpu: ", kDeviceAlwaysPays);
  std::vector<uint32_t> order(span.count);
  gpu->sort(span, order.data());
  EXPECT_EQ(order, gsort_test::reference_order(spec, lines)) << gpu->steps();
  EXPECT_TRUE(gpu->holds_text(span)) << gpu->steps();
  expected->clear();
  for (uint32_t i : order) expected->append(lines[i]).push_back('\n');
  Gathered g;
  if (budget) g.sort_bytes = budget->taken();
  g.handed = gpu->write_sorted(span, order.data(), [&](const uint8_t* text, uint64_t bytes, bool last) {
    g.text.append(reinterpret_cast<const char*>(text), bytes);
    ++g.pieces;
    g.lasts += last;
  });
  return g;
}

TEST(GpuLineGather, TheSortedTextIsTheLinesInTheSortersOrder) {
  GSORT_REQUIRE_GPU();
  // 400,000 lines of about 25 bytes: the text crosses in several pieces.
  const std::vector<std::string> lines = csv_lines(3, 400000);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-t,", "-k3,3n"}, {"-t,", "-k2,2", "-k1,1n"}, {"-t,", "-k2,2r", "-k3,3n", "-s"}}) {
    SCOPED_TRACE(testing::PrintToString(args));
    std::string expected;
    const Gathered g = sort_and_gather(lines, args, nullptr, &expected);
    ASSERT_TRUE(g.handed);
    EXPECT_TRUE(g.text == expected) << "the device's gather differs from the lines in order";
    EXPECT_EQ(g.lasts, 1);
    EXPECT_GE(g.pieces, 1);
  }
}

TEST(GpuLineGather, NoRoomUnderTheBudgetHandsNothing) {
  GSORT_REQUIRE_GPU();
  const std::vector<std::string> lines = csv_lines(4, 300000);
  // Room for the sort's buffers (entries, scratch, text) but not for the
  // gathered text besides: measured from a sorter with room for all.
  std::string expected;
  const Gathered roomy = sort_and_gather(lines, {"-t,", "-k3,3n"}, std::make_shared<DeviceBudget>(uint64_t{4} << 30), &expected);
  ASSERT_TRUE(roomy.handed);
  EXPECT_TRUE(roomy.text == expected);
  ASSERT_GT(roomy.sort_bytes, 0u);
  const uint64_t text_bytes = expected.size();
  auto tight = std::make_shared<DeviceBudget>(roomy.sort_bytes + text_bytes / 2);
  const Gathered g = sort_and_gather(lines, {"-t,", "-k3,3n"}, tight, &expected);
  EXPECT_EQ(g.sort_bytes, roomy.sort_bytes) << "the sort itself had room";
  EXPECT_FALSE(g.handed);
  EXPECT_TRUE(g.text.empty()) << "nothing handed where there is no room";
  EXPECT_LE(tight->taken(), roomy.sort_bytes + text_bytes / 2);
}

}  // namespace
}  // namespace gsort
