// The device's fill of composite entries (kernels/composite_fill.h,
// src/chunk_sort/lines/gpu/device_composite.h): for every kind of level it
// takes (plain text, folded and kept bytes, numbers of both signs, months,
// ranked names, 'r'), the GPU sorter's order must be the reference's and
// the CPU sorter's, the chunk filled and sorted off the CPU; lines the
// sample did not see make the plan widen and the device fill again.
// Skips without a usable GPU.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "src/chunk_sort/lines/gpu/sort_gpu.h"
#include "src/core/thread_pool.h"
#include "tests/gpu/require_gpu.h"
#include "tests/support/line_gen.h"
#include "tests/support/line_reference.h"

namespace gsort {
namespace {

using gsort_test::Rng;

const DeviceLineCosts kDeviceAlwaysPays{0, 1, 0};  // the device's start and copies free
const char* const kNames[] = {"alpha", "Bravo", "charlie", "delta", "ECHO", "foxtrot", "golf", "hotel-9", "india", "x"};
const char* const kMonths[] = {"JAN", "feb", "Mar", "apr", "MAY", "jun", "Jul", "aug", "SEP", "oct", "Nov", "dec", "no"};

std::string number(Rng& rng) {
  std::string s = rng.chance(30) ? "-" : "";
  s += std::to_string(rng.below(1000000));
  if (rng.chance(40)) s += "." + std::to_string(rng.below(1000));
  return s;
}

// CSV lines: a number, a name of few, a number, a word, a month.
std::vector<std::string> csv_lines(uint64_t seed, int count) {
  Rng rng(seed);
  std::vector<std::string> lines;
  for (int i = 0; i < count; ++i) {
    std::string word;
    for (uint64_t k = 0, n = 1 + rng.below(12); k < n; ++k) word += static_cast<char>('a' + rng.below(26));
    lines.push_back(number(rng) + "," + kNames[rng.below(10)] + "," + number(rng) + "," + word + "," +
                    kMonths[rng.below(13)]);
  }
  return lines;
}

// Sorts the lines on the CPU and on the GPU, both as the reference; where
// the CPU's chunk took a composite image and kept no tie words, the device
// must have filled it. Whether it did.
bool filled_on_device(const std::vector<std::string>& lines, const std::vector<std::string>& args,
                      const char* planned_again) {
  ThreadPool pool(4);
  const LineSpec spec = gsort_test::spec_of_args(args);
  const std::vector<uint32_t> expected = gsort_test::reference_order(spec, lines);
  const std::unique_ptr<LineSorter> cpu = make_cpu_line_sorter(spec, pool);
  EXPECT_EQ(gsort_test::order_by(*cpu, spec, lines), expected);
  const std::unique_ptr<LineSorter> gpu =
      make_gpu_line_sorter(spec, pool, 0, nullptr, nullptr, "--backend gpu: ", kDeviceAlwaysPays);
  EXPECT_EQ(gsort_test::order_by(*gpu, spec, lines), expected) << gpu->steps();
  // A chunk whose lines keep their tie words (many tie) is filled on the CPU.
  if (cpu->steps().find("composite images in 1 of 1 chunks") == std::string::npos ||
      cpu->steps().find("tie words kept in 1)") != std::string::npos) {
    return false;
  }
  EXPECT_NE(gpu->steps().find("their entries filled there in 1,"), std::string::npos) << gpu->steps();
  EXPECT_NE(gpu->steps().find(planned_again), std::string::npos) << gpu->steps();
  return true;
}

TEST(GpuCompositeFill, EveryKindOfLevelAsTheReference) {
  GSORT_REQUIRE_GPU();
  const std::vector<std::string> lines = csv_lines(41, 300000);
  const std::vector<std::vector<std::string>> arg_sets = {
      {"-t,", "-k3,3n"},           {"-t,", "-k2,2", "-k1,1n"},      {"-t,", "-k4,4", "-k3,3nr", "-s"},
      {"-t,", "-k5,5M", "-k1,1n"}, {"-t,", "-k2,2f", "-k3,3n"},      {"-t,", "-k2,2d", "-k1,1nr"},
      {"-t,", "-k2,2r", "-k4,4"},  {"-t,", "-k2,2", "-k5,5M", "-k3,3n"}, {"-t,", "-k1,1h", "-k2,2"}};
  int filled = 0;
  for (const std::vector<std::string>& args : arg_sets) {
    SCOPED_TRACE(testing::PrintToString(args));
    filled += filled_on_device(lines, args, "0 planned again");
  }
  EXPECT_GE(filled, 4) << "of " << arg_sets.size() << " key mixes, the device filled too few";
}

// One line in a place the sample skips holds a number longer than any it
// saw: the device's fill finds it, the plan is widened, the device fills
// again, and the order is still the reference's.
TEST(GpuCompositeFill, ALineTheSampleMissedWidensThePlan) {
  GSORT_REQUIRE_GPU();
  Rng rng(5);
  std::vector<std::string> lines;
  for (int i = 0; i < 400000; ++i) lines.push_back(kNames[rng.below(4)] + std::string(",") + std::to_string(100 + rng.below(900)));
  lines[200001] = "alpha,123456789012345";  // the sample takes every 6th line
  lines[300001] = "Bravo,-7";
  EXPECT_TRUE(filled_on_device(lines, {"-t,", "-k1,1", "-k2,2n"}, "1 planned again"));
}

// Keys of few values, so that most lines tie and the last resort (the
// whole line) decides: the CPU's fill keeps every line's tie words, and
// the GPU's sorter fills and sorts on the device instead, its refinement
// reading the tied lines where they lie; both orders are the reference's.
TEST(GpuCompositeFill, TiesAtTheLastResortAreFilledOnTheDevice) {
  GSORT_REQUIRE_GPU();
  Rng rng(8);
  std::vector<std::string> lines;
  for (int i = 0; i < 300000; ++i) {
    lines.push_back(std::to_string(rng.below(100)) + "," + kNames[rng.below(10)] + "," + std::to_string(rng.below(100000)) +
                    "," + std::string(rng.below(30), 'x'));
  }
  ThreadPool pool(4);
  const LineSpec spec = gsort_test::spec_of_args({"-t,", "-k2,2", "-k1,1n"});
  const std::vector<uint32_t> expected = gsort_test::reference_order(spec, lines);
  const std::unique_ptr<LineSorter> cpu = make_cpu_line_sorter(spec, pool);
  EXPECT_EQ(gsort_test::order_by(*cpu, spec, lines), expected);
  EXPECT_NE(cpu->steps().find("tie words kept in 1)"), std::string::npos) << cpu->steps();
  const std::unique_ptr<LineSorter> gpu =
      make_gpu_line_sorter(spec, pool, 0, nullptr, nullptr, "--backend gpu: ", kDeviceAlwaysPays);
  EXPECT_EQ(gsort_test::order_by(*gpu, spec, lines), expected) << gpu->steps();
  EXPECT_NE(gpu->steps().find("their entries filled there in 1,"), std::string::npos) << gpu->steps();
  EXPECT_NE(gpu->steps().find("tie words kept in 0)"), std::string::npos) << gpu->steps();
}

// Lines of few keys whose whole lines (the last resort) tie further in:
// after a shared run of `shared` bytes, a tail that is random, empty, a
// prefix of another's, a NUL the padding hides, or the same as another
// line's. The device refines the ties by words of the whole line, the
// host settles what its rounds leave, and the order is the reference's
// for each depth: within the device's rounds (0, 8, 16 bytes) and past
// them (64).
std::vector<std::string> deep_ties(uint64_t seed, int count, size_t shared) {
  Rng rng(seed);
  const std::string common(shared, 'p');
  std::vector<std::string> lines;
  for (int i = 0; i < count; ++i) {
    std::string tail;
    switch (rng.below(6)) {
      case 0: break;
      case 1: tail = std::string(1 + rng.below(3), 'x'); break;  // prefixes of one another
      case 2: tail = std::string("q") + '\0'; break;           // the padding hides the NUL: the length tells
      case 3: tail = "dup"; break;                               // whole lines the same
      default: tail = std::to_string(rng.below(1000000)); break;
    }
    lines.push_back(std::to_string(rng.below(3)) + "," + kNames[rng.below(3)] + "," + common + tail);
  }
  return lines;
}

TEST(GpuCompositeFill, TiesAtTheWholeLineAreRefinedOnTheDevice) {
  GSORT_REQUIRE_GPU();
  ThreadPool pool(4);
  const std::vector<std::vector<std::string>> arg_sets = {{"-t,", "-k2,2", "-k1,1n"}, {"-t,", "-k2,2", "-k1,1n", "-r"}};
  for (const size_t shared : {0, 8, 16, 64}) {
    const std::vector<std::string> lines = deep_ties(17 + shared, 200000, shared);
    for (const std::vector<std::string>& args : arg_sets) {
      SCOPED_TRACE(testing::PrintToString(args) + ", shared bytes " + std::to_string(shared));
      const LineSpec spec = gsort_test::spec_of_args(args);
      const std::vector<uint32_t> expected = gsort_test::reference_order(spec, lines);
      const std::unique_ptr<LineSorter> gpu =
          make_gpu_line_sorter(spec, pool, 0, nullptr, nullptr, "--backend gpu: ", kDeviceAlwaysPays);
      EXPECT_EQ(gsort_test::order_by(*gpu, spec, lines), expected) << gpu->steps();
      EXPECT_NE(gpu->steps().find("ties refined there in 1 chunks"), std::string::npos) << gpu->steps();
    }
  }
}

// Names too many to rank (more than kManySlotsMost in the chunk) and too
// long for the composite to hold the number after them: most lines tie at
// the second key (a number, or its text), which the device refines; equal
// numbers and equal texts go on to the last resort (or, with -s, stay in
// input order). Some 25 lines a name, so that more lines tie than the
// device's refinement asks for (1.1 million of 2.5 million on the CPU).
TEST(GpuCompositeFill, TiesAtAKeyAreRefinedOnTheDevice) {
  GSORT_REQUIRE_GPU();
  Rng rng(23);
  std::vector<std::string> names;
  for (int i = 0; i < 100000; ++i) {  // more than a level's ranks take (kManySlotsMost)
    std::string name;
    for (uint64_t k = 0, n = 10 + rng.below(3); k < n; ++k) name += static_cast<char>('a' + rng.below(26));
    names.push_back(name);
  }
  std::vector<std::string> lines;
  for (int i = 0; i < 2500000; ++i) {
    const std::string num = rng.chance(10) ? "-" + std::to_string(rng.below(1000)) : std::to_string(rng.below(1000000000));
    lines.push_back(num + "," + names[rng.below(names.size())] + "," + std::to_string(rng.below(10)));
  }
  ThreadPool pool(4);
  const std::vector<std::vector<std::string>> arg_sets = {
      {"-t,", "-k2,2", "-k1,1n"}, {"-t,", "-k2,2", "-k1,1nr"}, {"-t,", "-k2,2", "-k1,1"}, {"-t,", "-k2,2", "-k1,1n", "-s"}};
  for (const std::vector<std::string>& args : arg_sets) {
    SCOPED_TRACE(testing::PrintToString(args));
    const LineSpec spec = gsort_test::spec_of_args(args);
    const std::unique_ptr<LineSorter> gpu =
        make_gpu_line_sorter(spec, pool, 0, nullptr, nullptr, "--backend gpu: ", kDeviceAlwaysPays);
    EXPECT_EQ(gsort_test::order_by(*gpu, spec, lines), gsort_test::reference_order(spec, lines)) << gpu->steps();
    EXPECT_NE(gpu->steps().find("ties refined there in 1 chunks"), std::string::npos) << gpu->steps();
  }
}

// All lines the same: every round leaves them tied, and the host keeps
// them in input order.
TEST(GpuCompositeFill, LinesAllTheSameStayInInputOrder) {
  GSORT_REQUIRE_GPU();
  ThreadPool pool(4);
  const std::vector<std::string> lines(150000, "7,alpha,the same line");
  const LineSpec spec = gsort_test::spec_of_args({"-t,", "-k2,2", "-k1,1n"});
  const std::unique_ptr<LineSorter> gpu =
      make_gpu_line_sorter(spec, pool, 0, nullptr, nullptr, "--backend gpu: ", kDeviceAlwaysPays);
  EXPECT_EQ(gsort_test::order_by(*gpu, spec, lines), gsort_test::reference_order(spec, lines)) << gpu->steps();
}

}  // namespace
}  // namespace gsort
