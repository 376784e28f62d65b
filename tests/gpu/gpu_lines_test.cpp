// The GPU sorter of lines (src/chunk_sort/lines/gpu/sort_gpu.h, kernels/entry_sort.cu)
// against the plain reference sort and against GNU sort: its order must be
// exactly the CPU sorter's. Adversarial ties for the host's refinement
// after the device's sort: all lines equal, long common prefixes, one very
// long line among short ones, numeric keys with equal values. Skips
// without a usable GPU.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "src/chunk_sort/cpu/pair_sort.h"
#include "src/chunk_sort/lines/gpu/sort_gpu.h"
#include "src/core/device_budget.h"
#include "src/core/errors.h"
#include "src/core/thread_pool.h"
#include "tests/gpu/require_gpu.h"
#include "tests/lines/gnu_diff.h"
#include "tests/support/line_gen.h"
#include "tests/support/line_reference.h"

namespace gsort {
namespace {

using gsort_test::Rng;

// Costs under which every chunk offered goes to the device: its start and
// copies free, the CPU's sort not.
const DeviceLineCosts kDeviceAlwaysPays{0, 1, 0};
const std::string kPrefix = "--backend gpu: ";

TEST(GpuLines, MatchesTheReferenceUnderRandomOptions) {
  GSORT_REQUIRE_GPU();
  ThreadPool pool(4);
  EXPECT_EQ(gsort_test::random_rounds_against_reference(
                4242, 500, 400, [&](const LineSpec& spec) { return make_gpu_line_sorter(spec, pool, 0, nullptr, nullptr, kPrefix, kDeviceAlwaysPays); }),
            "");
}

TEST(GpuLines, AdversarialTies) {
  GSORT_REQUIRE_GPU();
  ThreadPool pool(4);
  Rng rng(6);
  const std::string prefix(200, 'p');  // 25 words: past the device's rounds
  std::vector<std::vector<std::string>> cases(6);
  for (int i = 0; i < 200000; ++i) cases[0].push_back("all equal");
  for (int i = 0; i < 200000; ++i) cases[1].push_back(prefix + std::to_string(rng.below(1000000)));
  for (int i = 0; i < 100000; ++i) cases[2].push_back(std::to_string(rng.below(50)));
  cases[2][4321] = std::string(4 << 20, 'z');
  for (int i = 0; i < 100000; ++i) cases[3].push_back(prefix.substr(0, rng.below(200)));
  for (int i = 0; i < 100000; ++i) {
    cases[4].push_back(std::string(rng.below(3), ' ') + (rng.chance(50) ? "-" : "") + std::string(rng.below(3), '0') +
                       std::to_string(rng.below(20)) + (rng.chance(50) ? ".0" : "") + " x" + std::to_string(i % 7));
  }
  for (int i = 0; i < 50000; ++i) cases[5].push_back(std::string(rng.range(0, 70), 'q') + std::string(1, '\0') + "t");
  const std::vector<std::vector<std::string>> arg_sets = {{}, {"-r"}, {"-s", "-k1,1.5"}, {"-u"}, {"-n"}, {"-k1,1n", "-k2,2r"},
                                                          {"-f", "-b"}};
  EXPECT_EQ(gsort_test::differences_from_reference(
                cases, arg_sets, [&](const LineSpec& spec) { return make_gpu_line_sorter(spec, pool, 0, nullptr, nullptr, kPrefix, kDeviceAlwaysPays); }),
            "");
}

// --gpu-memory is one account for the job: the sorter takes its buffers
// from it while it lives, gives them back when it goes, and where another
// user (the held runs) has taken the budget, sorts on the CPU instead.
TEST(GpuLines, TheSorterTakesItsBuffersFromTheJobsBudget) {
  GSORT_REQUIRE_GPU();
  ThreadPool pool(1);  // one thread: a chunk past kOffloadMin lines goes to the device
  Rng rng(12);
  std::vector<std::string> lines;
  for (int i = 0; i < 200000; ++i) lines.push_back(std::to_string(rng.below(1000000000)));
  const LineSpec spec = gsort_test::spec_of_args({"-n"});
  const std::vector<uint32_t> expected = gsort_test::reference_order(spec, lines);
  auto budget = std::make_shared<DeviceBudget>(uint64_t{64} << 20);
  {
    DeviceBudgetShare held_runs(budget);
    ASSERT_TRUE(held_runs.hold(uint64_t{63} << 20));
    const std::unique_ptr<LineSorter> sorter = make_gpu_line_sorter(spec, pool, 0, budget, nullptr, kPrefix, kDeviceAlwaysPays);
    EXPECT_EQ(gsort_test::order_by(*sorter, spec, lines), expected);
    EXPECT_EQ(budget->taken(), uint64_t{63} << 20) << "the sorter found no room and took none";
  }
  std::unique_ptr<LineSorter> sorter = make_gpu_line_sorter(spec, pool, 0, budget, nullptr, kPrefix, kDeviceAlwaysPays);
  EXPECT_EQ(gsort_test::order_by(*sorter, spec, lines), expected);
  const uint64_t entries = 2 * lines.size() * sizeof(WideEntry);
  EXPECT_GE(budget->taken(), entries) << "the device sorted, holding its buffers";
  EXPECT_LE(budget->taken(), uint64_t{64} << 20);
  sorter.reset();
  EXPECT_EQ(budget->taken(), 0u) << "gone, the sorter gave its bytes back";
}

// At the measured costs, a chunk whose CPU sort takes less than the
// device's start leaves the device unstarted; at no cost it starts it.
TEST(GpuLines, TheDeviceStartsOnlyForAChunkThatPaysForIt) {
  GSORT_REQUIRE_GPU();
  ThreadPool pool(1);  // one thread: every chunk past kOffloadMin lines is offered
  Rng rng(13);
  std::vector<std::string> lines;
  for (int i = 0; i < 200000; ++i) lines.push_back(std::to_string(rng.below(1000000000)));
  const LineSpec spec = gsort_test::spec_of_args({"-n"});
  const std::vector<uint32_t> expected = gsort_test::reference_order(spec, lines);
  const std::unique_ptr<LineSorter> measured = make_gpu_line_sorter(spec, pool, 0, nullptr);
  EXPECT_EQ(gsort_test::order_by(*measured, spec, lines), expected);
  EXPECT_NE(measured->steps().find("the GPU not started"), std::string::npos) << measured->steps();
  const std::unique_ptr<LineSorter> free = make_gpu_line_sorter(spec, pool, 0, nullptr, nullptr, kPrefix, kDeviceAlwaysPays);
  EXPECT_EQ(gsort_test::order_by(*free, spec, lines), expected);
  EXPECT_NE(free->steps().find("the GPU started in"), std::string::npos) << free->steps();
  EXPECT_NE(free->steps().find("sorted off the CPU"), std::string::npos);
  EXPECT_EQ(free->steps().find("(0 chunks)"), std::string::npos) << free->steps();
}

// Where no GPU can start (the CI host: no driver, or a device that fails),
// --backend gpu's sorter fails the first chunk that would use it with one
// line, and auto's (an empty failure prefix) sorts every chunk on the CPU.
TEST(GpuLines, WithoutAUsableGpuAutoSortsOnTheCpuAndGpuFails) {
  std::string why;
  if (gpu_usable(0, &why)) GTEST_SKIP() << "a GPU is usable here";
  ThreadPool pool(2);
  Rng rng(14);
  std::vector<std::string> lines;
  for (int i = 0; i < 50000; ++i) lines.push_back(std::to_string(rng.below(1000000)) + "," + std::to_string(i % 13));
  for (const std::vector<std::string>& args : {std::vector<std::string>{"-n"}, {"-t,", "-k2,2", "-k1,1n"}}) {
    const LineSpec spec = gsort_test::spec_of_args(args);
    const std::unique_ptr<LineSorter> automatic = make_gpu_line_sorter(spec, pool, 0, nullptr, nullptr, "", kDeviceAlwaysPays);
    EXPECT_EQ(gsort_test::order_by(*automatic, spec, lines), gsort_test::reference_order(spec, lines));
    EXPECT_NE(automatic->steps().find("the GPU could not start"), std::string::npos) << automatic->steps();
    const std::unique_ptr<LineSorter> asked = make_gpu_line_sorter(spec, pool, 0, nullptr, nullptr, kPrefix, kDeviceAlwaysPays);
    try {
      gsort_test::order_by(*asked, spec, lines);
      ADD_FAILURE() << "--backend gpu sorted without a GPU";
    } catch (const DeviceError& e) {
      EXPECT_EQ(std::string(e.what()), kPrefix + why);
    }
  }
}

// auto takes the GPU's sorter where a GPU is present: the same bytes as
// GNU sort, in memory and spilled.
TEST(GpuLines, DifferentialUnderAuto) {
  GSORT_REQUIRE_GPU();
  gsort_test::DiffOutcome d = gsort_test::run_gnu_differential(80, 600, 150, {"--backend", "auto"});
  EXPECT_TRUE(d.same) << d.what;
  d = gsort_test::run_gnu_differential(81, 10, 60000, {"-S", "1M"});
  EXPECT_TRUE(d.same) << d.what;
}

TEST(GpuLines, DifferentialAgainstGnuSort) {
  GSORT_REQUIRE_GPU();
  const gsort_test::DiffOutcome d = gsort_test::run_gnu_differential(77, 2500, 150, {"--backend", "gpu"});
  EXPECT_TRUE(d.same) << d.what;
}

TEST(GpuLines, DifferentialLargerAndSpilled) {
  GSORT_REQUIRE_GPU();
  gsort_test::DiffOutcome d = gsort_test::run_gnu_differential(78, 40, 50000, {"--backend", "gpu"});
  EXPECT_TRUE(d.same) << d.what;
  d = gsort_test::run_gnu_differential(79, 10, 60000, {"--backend", "gpu", "-S", "1M"});
  EXPECT_TRUE(d.same) << d.what;
}

}  // namespace
}  // namespace gsort
