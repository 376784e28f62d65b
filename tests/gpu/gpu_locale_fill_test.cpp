// The device's fill of composite entries in a locale
// (kernels/composite_fill.h): a collated key of few distinct values is
// ranked on the host (src/chunk_sort/lines/collated_ranks.h) and found
// among them on the device, so that -t, -k2,2 -k1,1n in en_US.UTF-8 is
// filled and sorted there as in C. Names that differ only in case, accents
// and punctuation, or not at all to the collation; a name the sample
// misses (the plan widens, the device fills again); reversed, and -s. A
// few accented words of many lines each, whose last resort's collated
// heads the device makes from the collation's table (head_table.h); a line
// with a character the table lacks, which the host fills. The order must
// be the reference's and the CPU sorter's. Skips without a usable GPU (the
// widened plan's test needs none) or without the locale.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "src/chunk_sort/lines/gpu/device_composite.h"
#include "src/chunk_sort/lines/gpu/sort_gpu.h"
#include "src/core/thread_pool.h"
#include "tests/gpu/require_gpu.h"
#include "tests/support/line_gen.h"
#include "tests/support/line_reference.h"

namespace gsort {
namespace {

using gsort_test::Rng;

const DeviceLineCosts kDeviceAlwaysPays{0, 1, 0};  // the device's start and copies free

TEST(GpuLocaleFill, RankedCollatedKeysAreFoundOnTheDevice) {
  GSORT_REQUIRE_GPU();
  if (!gsort_test::locale_installed("en_US.UTF-8")) GTEST_SKIP() << "en_US.UTF-8 is not installed (apt-get install locales-all)";
  const std::vector<std::string> names = {"Smith", "smith", "O'Brien", "OBrien", "o'brien", "lee", "Lee", "Van Dyke",
                                          "VanDyke", "Smith-Jones", "\xC3\x89lise", "Elise", "elise", "\xC3\xA9lise",
                                          "M\xC3\xBCller", "Muller", "Mueller", "\xC3\x85sa", "Asa", ""};
  Rng rng(77);
  std::vector<std::string> lines;
  for (int i = 0; i < 300000; ++i) {
    const std::string sign = rng.chance(20) ? "-" : "";
    lines.push_back(sign + std::to_string(rng.below(1000000)) + "," + names[rng.below(names.size())] + "," +
                    names[rng.below(names.size())]);
  }
  lines[200001] = "5,Zo\xC3\xAB,lee";  // the sample takes every 4th line
  ThreadPool pool(4);
  const std::vector<std::vector<std::string>> arg_sets = {
      {"-t,", "-k2,2", "-k1,1n"}, {"-t,", "-k2,2r", "-k3,3", "-k1,1n"}, {"-t,", "-k2,2", "-k1,1nr", "-s"}};
  for (const std::vector<std::string>& args : arg_sets) {
    SCOPED_TRACE(testing::PrintToString(args));
    const LineSpec spec = gsort_test::spec_in_locale("en_US.UTF-8", args);
    const std::vector<uint32_t> expected = gsort_test::reference_order(spec, lines);
    const std::unique_ptr<LineSorter> cpu = make_cpu_line_sorter(spec, pool);
    EXPECT_EQ(gsort_test::order_by(*cpu, spec, lines), expected) << cpu->steps();
    const std::unique_ptr<LineSorter> gpu =
        make_gpu_line_sorter(spec, pool, 0, nullptr, nullptr, "--backend gpu: ", kDeviceAlwaysPays);
    EXPECT_EQ(gsort_test::order_by(*gpu, spec, lines), expected) << gpu->steps();
    EXPECT_NE(gpu->steps().find("their entries filled there in 1,"), std::string::npos) << gpu->steps();
  }
}

// Words of thousands of lines each: the last resort decides, by heads
// of the whole line made on the device; reversed by -r too. A line with
// a character outside the table (Greek) does not fit the device's plan:
// the order is still the reference's.
TEST(GpuLocaleFill, CollatedHeadsAreMadeOnTheDevice) {
  GSORT_REQUIRE_GPU();
  if (!gsort_test::locale_installed("en_US.UTF-8")) GTEST_SKIP() << "en_US.UTF-8 is not installed (apt-get install locales-all)";
  const std::vector<std::string> words = {"\xC3\xA9t\xC3\xA9", "ete", "Ete", "\xC3\x89t\xC3\xA9", "zoo",
                                          "Zo\xC3\xAB", "c\xC3\xB4te", "cote", "cot\xC3\xA9", "C\xC3\xB4t\xC3\xA9"};
  const std::vector<std::string> names = {"O'Brien", "Van Dyke", "Smith-Jones", "lee", "Lee", "M\xC3\xBCller", ""};
  Rng rng(91);
  std::vector<std::string> lines;
  for (int i = 0; i < 300000; ++i) {
    lines.push_back(std::to_string(rng.below(100000)) + "," + names[rng.below(names.size())] + "," +
                    words[rng.below(words.size())]);
  }
  ThreadPool pool(4);
  for (const bool outside : {false, true}) {
    if (outside) lines[123457] = "7,\xCE\xA9mega,zoo";
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"-t,", "-k3,3"}, {"-t,", "-k3,3", "-r"}}) {
      SCOPED_TRACE(testing::PrintToString(args) + (outside ? " with a Greek line" : ""));
      const LineSpec spec = gsort_test::spec_in_locale("en_US.UTF-8", args);
      const std::vector<uint32_t> expected = gsort_test::reference_order(spec, lines);
      const std::unique_ptr<LineSorter> gpu =
          make_gpu_line_sorter(spec, pool, 0, nullptr, nullptr, "--backend gpu: ", kDeviceAlwaysPays);
      EXPECT_EQ(gsort_test::order_by(*gpu, spec, lines), expected) << gpu->steps();
      if (!outside) EXPECT_NE(gpu->steps().find("their entries filled there in 1,"), std::string::npos) << gpu->steps();
    }
  }
}

// A plan widened by a name the sample missed leaves the last resort's
// heads out as the first plan did (composite_pass.cpp's
// without_costly_heads), so that the device fills it without the heads
// (each a pass over the line's text). Each plan handed to the offload is one
// the device takes (device_composite); the first hand-over reports the
// missed name's line as not fitting, as the device would. Needs no GPU.
TEST(GpuLocaleFill, AWidenedPlanLeavesTheHeadsOutAsTheFirstDid) {
  if (!gsort_test::locale_installed("en_US.UTF-8")) GTEST_SKIP() << "en_US.UTF-8 is not installed (apt-get install locales-all)";
  const std::vector<std::string> names = {"Smith", "smith", "O'Brien", "OBrien", "lee", "Lee", "\xC3\x89lise", "Elise"};
  Rng rng(24);
  std::vector<std::string> lines;
  for (int i = 0; i < 300000; ++i) {
    lines.push_back(std::to_string(rng.below(1000000)) + "," + names[rng.below(names.size())] + "," +
                    names[rng.below(names.size())]);
  }
  const uint64_t missed = 200001;  // (the sample takes every 4th line)
  lines[missed] = "5,Zo\xC3\xAB,lee";
  ThreadPool pool(4);
  const LineSpec spec = gsort_test::spec_in_locale("en_US.UTF-8", {"-t,", "-k2,2", "-k1,1n"});
  std::vector<size_t> levels;
  std::vector<bool> device_takes;
  const CompositeOffload offload = [&](const LineSpan&, const std::vector<LineImageSpec>& specs, const Composite& c,
                                       const std::vector<uint64_t>& reference, WideEntry*) -> std::optional<Misfits> {
    std::vector<const FewSlots*> ranked;
    levels.push_back(c.levels.size());
    device_takes.push_back(device_composite(specs, c, reference, &ranked).has_value());
    if (levels.size() > 1) return std::nullopt;  // the CPU fills
    Misfits m;
    m.lines = {missed};
    return m;
  };
  const std::unique_ptr<LineSorter> sorter = make_cpu_line_sorter(spec, pool, {}, offload);
  ASSERT_EQ(gsort_test::order_by(*sorter, spec, lines), gsort_test::reference_order(spec, lines));
  EXPECT_EQ(levels, (std::vector<size_t>{2, 2})) << "the name, the number; no last resort";
  EXPECT_EQ(device_takes, (std::vector<bool>{true, true}));
}

}  // namespace
}  // namespace gsort
